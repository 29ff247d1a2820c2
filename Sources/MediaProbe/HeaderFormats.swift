import MediaModel

/// Formats that neither FFmpeg 5.1 nor TagLib 1.13 reads, which mlib reads from their headers itself:
/// OptimFROG, Musepack SV4–SV6, and DSD (DSF, DSDIFF: FFmpeg reads them, but wrongly; see DSDHeader).
/// They are recognised before FFmpeg is asked (a Musepack SV5 stream has no magic bytes, and FFmpeg's
/// probing could take its data for something else), so both probe paths give the same result. Tags come from TagLib's APEv2/ID3v1 readers, asked for tags only.
extension MediaProbe {
    static func headerFormat(_ file: MediaFile) -> ProbeResult? {
        let ext = file.path.fileExtension
        if let ofr = OptimFROGHeader.parse(Array(file.head.prefix(32))) {
            var audio = StreamInfo(index: 0, kind: .audio, codec: "optimfrog")
            audio.codecLongName = "OptimFROG" + (ext == "ofs" ? " DualStream" : "") + (ofr.encoderVersion.map { " \($0)" } ?? "")
            audio.sampleRate = ofr.sampleRate > 0 ? ofr.sampleRate : nil
            audio.channels = ofr.channels
            audio.bitDepth = ofr.bitDepth
            return headerOnly(file, formatName: "ofr", fileType: ext == "ofs" ? "ofs" : "ofr", audio: audio,
                              duration: ofr.duration, audioStart: 0, tagClass: "ape")
        }
        if let dsd = DSDHeader.read(file) {
            var audio = StreamInfo(index: 0, kind: .audio, codec: dsd.codec)
            audio.codecLongName = (dsd.kind == .dsf ? "DSD (DSF)" : dsd.dstSeconds != nil ? "DST (DSDIFF)" : "DSD (DSDIFF)")
                + ", \(dsd.dsdRate / 44100)× 44.1 kHz"
            audio.sampleRate = dsd.dsdRate
            audio.channels = dsd.channels
            audio.bitDepth = 1
            audio.duration = dsd.duration
            audio.bitRate = dsd.dstSeconds == nil ? Int64(dsd.dsdRate) * Int64(dsd.channels) : nil
            let tagLib = dsd.id3v2At.flatMap { TagLibReader.readID3v2(file, at: $0) }
            var damage: [String] = []
            if dsd.isTruncated {
                damage.append("the audio stops at \(dsd.presentBytes * 100 / dsd.declaredBytes)% of the length its header declares (truncated)")
            }
            return assemble(file.path, file.facts, formatName: dsd.kind == .dsf ? "dsf" : "iff",
                            fileType: dsd.kind == .dsf ? "dsf" : "dff", duration: dsd.duration, bitRate: audio.bitRate,
                            streams: [audio], tagLib: tagLib,
                            tags: [tagLib.map { TagMapping.canonicalTagLib($0.properties) } ?? []], damage: damage,
                            sizeCheck: false, chapters: tagLib?.chapters ?? [],
                            declaredDuration: dsd.isTruncated ? dsd.declaredDuration : nil)
        }
        if MusepackSV6Header.extensions.contains(ext) {
            let start = FormatSniffer.audioStart(file)
            guard let mpc = MusepackSV6Header.parse(file.bytes(at: start, count: 8)) else { return nil }
            var audio = StreamInfo(index: 0, kind: .audio, codec: "musepack\(mpc.version)")
            audio.codecLongName = "Musepack SV\(mpc.version)" + (mpc.midSide ? ", mid/side stereo" : "")
                + (mpc.constantBitRate > 0 ? ", \(mpc.constantBitRate) kb/s CBR" : "")
            audio.sampleRate = MusepackSV6Header.sampleRate
            audio.channels = MusepackSV6Header.channels
            return headerOnly(file, formatName: "mpc", fileType: "mpc", audio: audio, duration: mpc.duration,
                              audioStart: start, tagClass: "mpc")
        }
        return nil
    }

    /// The item from a header: the audio bit rate is the audio data's average (the file less its tags).
    private static func headerOnly(_ file: MediaFile, formatName: String, fileType: String, audio: StreamInfo,
                                   duration: Double?, audioStart: Int64, tagClass: String) -> ProbeResult {
        var audio = audio
        audio.duration = duration
        let audioBytes = max(0, file.facts.size - audioStart - NativeReading.trailingTagBytes(file))
        if let duration, duration > 0 { audio.bitRate = Int64((Double(audioBytes) * 8 / duration).rounded()) }
        let tagLib = TagLibReader.read(file, hint: tagClass, audioProperties: false)
        var damage: [String] = []
        if audioBytes == 0 { damage.append("no audio after the header") }
        return assemble(file.path, file.facts, formatName: formatName, fileType: fileType, duration: duration,
                        bitRate: audio.bitRate, streams: [audio], tagLib: tagLib,
                        tags: [tagLib.map { TagMapping.canonicalTagLib($0.properties) } ?? []], damage: damage,
                        sizeCheck: false, chapters: [])
    }
}
