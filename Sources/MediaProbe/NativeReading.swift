/// What mlib reads from a file's headers itself, for the formats the scanner's fast path covers (MP3,
/// FLAC, Ogg Vorbis/Opus, WAV): the exact length, the audio stream's bit rate, the tags TagLib shortens,
/// and signs of damage. Both probe paths use it, so `mlib info` and the index agree on every value, and
/// neither inherits FFmpeg's or TagLib's mistakes here (LAME delay and padding counted as audio, Opus
/// pre-skip counted as audio, the file average with the cover art as the audio bit rate, "2003" for a WAV
/// dated 2003-05-17). Costs little I/O: the values come mostly from the shared head and tail windows.
struct NativeReading {
    /// The audio present (of a truncated file: what is left of it).
    var duration: Double?
    /// A truncated file's length as its header declares it (nil when the file holds all of it).
    var declaredDuration: Double?
    /// The audio stream's bit rate: the header's for CBR, the audio data's average otherwise.
    var audioBitRate: Int64?
    /// Tags that override TagLib's spelling of the same key (RIFF INFO's full date and track total).
    var tags: [(String, String)] = []
    /// Why the file is only partly readable, when it is.
    var damage: [String] = []
    /// What the reader had to interpret, without damage to the file (text not in the encoding the format
    /// names): warnings that do not make the file partial.
    var notes: [String] = []
    /// FLAC: how many PICTURE metadata blocks the file has (TagLib drops a damaged one silently).
    var pictureBlocks = 0
    /// MP3: the first frame's header (nil: no MPEG audio at all, a tag-only file).
    var mpeg: MPEGAudioHeader?

    /// `container` is FFmpeg's name for the format ("mp3", "flac", "ogg", "wav"), `codec` the first audio codec.
    static func read(_ file: MediaFile, container: String, codec: String?) -> NativeReading {
        var r = NativeReading()
        switch container {
        case "mp3": r.readMPEG(file)
        case "flac": r.readFLAC(file)
        case "ogg": r.readOgg(file, codec: codec)
        case "wav": r.readWAV(file)
        default: break
        }
        return r
    }

    private mutating func readMPEG(_ file: MediaFile) {
        tags = ID3v23Frames.read(file)
        var start = FormatSniffer.audioStart(file)
        let audioEnd = file.facts.size - Self.trailingTagBytes(file)
        // The first frame, within 64 KiB of the tag's end (some taggers leave padding or junk there): one
        // followed by another of the same stream, as FFmpeg and mutagen take it (junk can hold a lone header
        // that is no frame: taken, it marked the file damaged and gave it a fraction of its length); else
        // the first header at all.
        let window = file.bytes(at: start, count: 64 * 1024)
        let windowAudio = Int(min(Int64(window.count), audioEnd - start))
        let offset = window.withUnsafeBytes { b in
            b.indices.first { MPEGFrameWalk.startsStream(b, at: $0, audioEnd: windowAudio) }
                ?? b.indices.first { MPEGFrameWalk.frame(b, at: $0) != nil }
        }
        guard let offset, var h = MPEGAudioHeader.read(file, at: start + Int64(offset)) else {
            damage.append(file.head.starts(with: Array("APETAGEX".utf8)) ? "only an APEv2 tag, no audio" : "no MPEG audio after the tag")
            return
        }
        start += Int64(offset)
        mpeg = h
        // Two consecutive frame headers are what FFmpeg (and mutagen) need to take the data for MPEG audio.
        let next = start + Int64(h.frameBytes)
        if next + 4 <= audioEnd {
            if let second = MPEGAudioHeader.parse(file.bytes(at: next, count: 4)) {
                // Not even two whole frames (a stream cut a frame in): FFmpeg's MP3 reader refuses it.
                if next + Int64(second.frameBytes) > audioEnd { damage.append("less than two whole MPEG frames (damaged)") }
            } else {
                damage.append("the first MPEG frame is not followed by another (damaged)")
            }
        }
        let audioBytes = max(0, audioEnd - start)
        var seconds: Double?
        // No Xing/VBRI header: CBR when the frames in the window keep one bit rate, else the frames counted.
        var counted: MPEGFrameWalk?
        if h.frames == nil {
            let audioWindow = offset == 0 ? window : Array(window[offset...])
            let head = MPEGFrameWalk.walk(file, window: audioWindow, from: start, to: audioEnd, onlyWindow: true)
            if head.variesInBitRate {
                let walk = head.reachedEnd ? head : MPEGFrameWalk.walk(file, window: audioWindow, from: start, to: audioEnd, onlyWindow: false)
                if walk.frames > 0 {
                    h.isVBR = true
                    counted = walk
                }
            }
        }
        if let walk = counted {
            // Past the walk's budget the rest is taken at the walked frames' average.
            let scale = walk.reachedEnd || walk.bytes == 0 ? 1 : Double(audioBytes) / Double(walk.bytes)
            seconds = Double(walk.samples) / Double(h.sampleRate) * scale
        } else if let samples = h.sampleCount, h.frames ?? 0 > 0 {
            seconds = Double(samples) / Double(h.sampleRate)
        } else if !h.isVBR, h.frameBitRate > 0 {
            seconds = Double(audioBytes) * 8 / Double(h.frameBitRate)
        }
        if let declared = h.bytes, declared > 0, Double(audioBytes) < Double(declared) * 0.8 {
            damage.append("the audio stops at \(audioBytes * 100 / Int64(declared))% of the length its header declares (truncated)")
            declaredDuration = seconds
            seconds = presentSeconds(file, h, window: offset == 0 ? window : Array(window[offset...]), from: start, to: audioEnd)
                ?? seconds.map { $0 * Double(audioBytes) / Double(declared) }
        }
        // An absurd header (a frame count the file cannot hold at its bit rate): trust the size.
        if damage.isEmpty, !h.isVBR, h.frameBitRate > 0, let s = seconds,
           s * Double(h.frameBitRate) / 8 > 1.25 * Double(audioBytes) + 4096 {
            damage.append("the file is shorter than its header says (truncated?)")
            declaredDuration = s
            seconds = Double(audioBytes) * 8 / Double(h.frameBitRate)
        }
        duration = seconds
        if !h.isVBR {
            audioBitRate = Int64(h.frameBitRate)
        } else if let seconds, seconds > 0 {
            audioBitRate = Int64((Double(min(Int64(h.bytes ?? Int(audioBytes)), audioBytes)) * 8 / seconds).rounded())
        }
    }

    /// A cut MP3's length: the audio its whole frames decode to (what FFmpeg decodes), not the header's
    /// length scaled by the bytes left (the frames of a VBR stream differ in size: mutagen's `vbri.mp3`, 8 kB
    /// of a 222 s file, read 0.246 s where 0.444 s decodes). The Xing/VBRI frame holds no audio, nor does
    /// LAME's delay; a frame cut off decodes to nothing. nil when the frames cannot be walked.
    private func presentSeconds(_ file: MediaFile, _ h: MPEGAudioHeader, window: [UInt8], from start: Int64, to end: Int64) -> Double? {
        let walk = MPEGFrameWalk.walk(file, window: window, from: start, to: end, onlyWindow: false)
        guard walk.frames > 0, h.sampleRate > 0 else { return nil }
        var samples = walk.samples
        if walk.bytes > end - start { samples -= walk.samples / walk.frames }       // the last frame is cut
        if h.frames != nil { samples -= h.samplesPerFrame }                          // the header frame
        samples = max(0, samples - h.encoderDelay)
        // Past the walk's budget, the rest at the walked frames' average.
        let scale = walk.reachedEnd || walk.bytes == 0 ? 1 : Double(end - start) / Double(walk.bytes)
        return Double(samples) / Double(h.sampleRate) * scale
    }

    /// ID3v1 and APEv2 tags at the end of an MP3: not audio.
    static func trailingTagBytes(_ file: MediaFile) -> Int64 {
        let size = file.facts.size
        var end = size
        if size >= 128, file.bytes(at: size - 128, count: 3).elementsEqual("TAG".utf8) { end -= 128 }
        let footer = end >= 32 ? file.bytes(at: end - 32, count: 32) : []
        if footer.count == 32, footer[0..<8].elementsEqual("APETAGEX".utf8) {
            let tagSize = Int64(footer[12]) | Int64(footer[13]) << 8 | Int64(footer[14]) << 16 | Int64(footer[15]) << 24
            let hasHeader = footer[23] & 0x80 != 0
            end -= min(end, tagSize + (hasHeader ? 32 : 0))
        }
        return size - end
    }

    private mutating func readFLAC(_ file: MediaFile) {
        var at = Int64(FormatSniffer.audioStart(file))
        guard file.bytes(at: at, count: 4).elementsEqual("fLaC".utf8) else { return }
        at += 4
        var rate = 0, total: Int64 = 0
        for _ in 0..<1024 {                                  // metadata blocks, up to the last one
            let h = file.bytes(at: at, count: 4)
            guard h.count == 4 else { damage.append("the metadata blocks run past the end of the file"); return }
            let kind = h[0] & 0x7F, size = Int64(h[1]) << 16 | Int64(h[2]) << 8 | Int64(h[3])
            if kind == 0 {
                let s = file.bytes(at: at + 4, count: 18)
                guard s.count == 18 else { return }
                rate = Int(s[10]) << 12 | Int(s[11]) << 4 | Int(s[12]) >> 4
                total = Int64(s[13] & 0x0F) << 32 | Int64(s[14]) << 24 | Int64(s[15]) << 16 | Int64(s[16]) << 8 | Int64(s[17])
            }
            if kind == 6 { pictureBlocks += 1 }
            if kind == 4 { readVorbisComment(file.bytes(at: at + 4, count: Int(min(size, 1 << 24)))) }
            var end = at + 4 + size
            // A Vorbis comment or PICTURE block declared too short (TagLib's shim reads it by its structure
            // too, see readFLACByStructure): what follows the declared end is no block header (or, after the
            // last block, no frame), and the block's own structure ends further on.
            if kind == 4 || kind == 6, !Self.isFLACBlockBoundary(file, at: end, afterLast: h[0] & 0x80 != 0),
               let real = Self.flacStructuralLength(file, at: at + 4, kind: kind), real > size {
                damage.append("a metadata block declares a length shorter than its contents")
                end = at + 4 + real
            }
            at = end
            if h[0] & 0x80 != 0 { break }
        }
        guard rate > 0, total > 0 else { return }
        let seconds = Double(total) / Double(rate)
        duration = seconds
        // The bit rate of the audio as encoded: the declared length's share of the bytes it would take is
        // not known for a cut file, so its frames' average over what is there.
        if let present = FLACTail.audioPresent(file) {
            damage.append("the audio stops before the length STREAMINFO declares (truncated)")
            declaredDuration = seconds
            duration = Double(present.samples) / Double(rate)
        }
        let audioSeconds = duration ?? seconds
        audioBitRate = audioSeconds > 0 ? Int64((Double(max(0, file.facts.size - at)) * 8 / audioSeconds).rounded()) : nil
    }

    /// The fields of a Vorbis comment that are not UTF-8 (TagLib and FFmpeg drop them or show U+FFFD),
    /// decoded as Windows-1252 (a superset of the Latin-1 old taggers wrote), each with a note.
    mutating func readVorbisComment(_ b: [UInt8]) {
        func u32(_ i: Int) -> Int? {
            guard i >= 0, i + 4 <= b.count else { return nil }
            return Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
        }
        guard let vendor = u32(0), let count = u32(4 + vendor) else { return }
        var at = 8 + vendor
        for _ in 0..<min(count, 100_000) {
            guard let length = u32(at), at + 4 + length <= b.count else { return }
            let field = b[(at + 4)..<(at + 4 + length)]
            at += 4 + length
            guard !WindowsText.isUTF8(field), let eq = field.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = WindowsText.decode(field[..<eq]).uppercased(), value = WindowsText.windows1252(field[(eq + 1)...]).trimmed
            guard !key.isEmpty, !value.isEmpty else { continue }
            tags.append((key, value))
            notes.append("\(key) is not UTF-8; read as Windows-1252")
        }
    }

    /// Whether a metadata block may end at `at`: a block header follows (a defined type, a length inside
    /// the file), or after the last block an audio frame (sync 0xFFF8 or 0xFFF9), or the end of the file.
    static func isFLACBlockBoundary(_ file: MediaFile, at: Int64, afterLast: Bool) -> Bool {
        let h = file.bytes(at: at, count: 4)
        guard h.count == 4 else { return at == file.facts.size }
        if afterLast { return h[0] == 0xFF && h[1] & 0xFE == 0xF8 }
        let size = Int64(h[1]) << 16 | Int64(h[2]) << 8 | Int64(h[3])
        return h[0] & 0x7F <= 6 && at + 4 + size <= file.facts.size
    }

    /// The length of a Vorbis comment (kind 4) or PICTURE (kind 6) block read by its structure from `at`
    /// (after the block header), as the reference decoder and mutagen read them; nil when it does not parse.
    static func flacStructuralLength(_ file: MediaFile, at start: Int64, kind: UInt8) -> Int64? {
        let size = file.facts.size
        func u32(_ at: Int64, bigEndian: Bool) -> Int64? {
            let b = file.bytes(at: at, count: 4)
            guard b.count == 4 else { return nil }
            let v = bigEndian ? b.reduce(0) { $0 << 8 | Int64($1) } : b.reversed().reduce(0) { $0 << 8 | Int64($1) }
            return v
        }
        var p = start
        func field(bigEndian: Bool) -> Bool {
            guard let n = u32(p, bigEndian: bigEndian), p + 4 + n <= size else { return false }
            p += 4 + n
            return true
        }
        if kind == 4 {
            guard field(bigEndian: false), let count = u32(p, bigEndian: false), count <= 100_000 else { return nil }
            p += 4
            for _ in 0..<count where !field(bigEndian: false) { return nil }
        } else {
            p += 4
            guard field(bigEndian: true), field(bigEndian: true) else { return nil }
            p += 16
            guard field(bigEndian: true) else { return nil }
        }
        return p - start
    }

    /// The bit rate an Ogg Speex file's header states (nil when the encoder left it unknown, -1), as mutagen
    /// and a decoding FFmpeg give it; FFmpeg's header-only open leaves it unset.
    static func speexBitRate(_ head: [UInt8]) -> Int64? {
        guard head.count > 27, head.starts(with: Array("OggS".utf8)) else { return nil }
        let packet = 27 + Int(head[26])
        guard head.count >= packet + 56, head[packet..<packet + 8].elementsEqual("Speex   ".utf8) else { return nil }
        let nominal = (0..<4).reduce(Int32(0)) { $0 | Int32(head[packet + 52 + $1]) << (8 * $1) }
        return nominal > 0 ? Int64(nominal) : nil
    }

    private mutating func readOgg(_ file: MediaFile, codec: String?) {
        let head = file.head
        guard head.count > 27, head.starts(with: Array("OggS".utf8)) else { return }
        guard let (last, lastOffset) = OggPage.last(in: file.tail) else {
            damage.append("no complete Ogg page at the end of the file (truncated)")
            return
        }
        if lastOffset + last.length < file.tail.count { damage.append("the file ends inside an Ogg page (truncated)") }
        // FFmpeg checks every page it reads when it opens the file (the headers, then the last page for the
        // length) and refuses the file when one fails; the same pages are checked here: the header pages
        // (granule position 0) and the first page of audio after them, not every page in the window (that
        // cost ~64 µs per Ogg file). Checking a page FFmpeg skips only marks damage both paths see.
        var at = 0
        var headerBytes = 0        // the header pages' (granule 0: codec headers, comments, a cover): not audio
        while let page = OggPage.page(in: head, at: at) {
            if !page.crcMatches { damage.append("an Ogg page at byte \(at) fails its checksum"); break }
            at += page.length
            if page.granule != 0 { break }
            headerBytes = at
        }
        if damage.isEmpty, at + 4 <= head.count, !head[at..<at + 4].elementsEqual("OggS".utf8) {
            damage.append("no Ogg page where one should start, at byte \(at)")
        } else if damage.isEmpty, Int64(head.count) == file.facts.size, at + 4 <= head.count,
                  OggPage.page(in: head, at: at) == nil, at < lastOffset {      // the head is the tail here
            // A page header whose page runs past the end of the file, before the last page: FFmpeg stops there.
            damage.append("the Ogg page at byte \(at) runs past the end of the file (damaged)")
        }
        if !last.crcMatches { damage.append("the last Ogg page fails its checksum") }
        if let comment = OggPage.secondPacket(head) {        // Latin-1 fields TagLib drops (see readVorbisComment)
            if comment.starts(with: Array("\u{03}vorbis".utf8)) { readVorbisComment(Array(comment.dropFirst(7))) }
            if comment.starts(with: Array("OpusTags".utf8)) { readVorbisComment(Array(comment.dropFirst(8))) }
        }
        let packet = 27 + Int(head[26])
        if codec == "opus", let preSkip = OggPage.opusPreSkip(head), last.granule > 0 {
            duration = Double(max(0, last.granule - Int64(preSkip))) / 48000
        } else if codec == "vorbis", head.count >= packet + 28, head[packet] == 1 {
            let rate = (0..<4).reduce(0) { $0 | Int(head[packet + 12 + $1]) << (8 * $1) }
            let nominal = (0..<4).reduce(Int32(0)) { $0 | Int32(head[packet + 20 + $1]) << (8 * $1) }
            if rate > 0, last.granule > 0 { duration = Double(last.granule) / Double(rate) }
            if nominal > 0 { audioBitRate = Int64(nominal) }
        } else if codec == "speex" {
            audioBitRate = Self.speexBitRate(head)
        }
        // Else the audio pages' bytes over the length: counting the header pages too inflated the rate of a
        // short file (a 0.1 s Opus file read 164 kb/s, mutagen 153) and of any file with a large tag.
        if audioBitRate == nil, let seconds = duration, seconds > 0 {
            audioBitRate = Int64((Double(max(0, file.facts.size - Int64(headerBytes))) * 8 / seconds).rounded())
        }
    }

    private mutating func readWAV(_ file: MediaFile) {
        let riff = RIFFInfo.read(file)
        tags = riff.tags
        if let byteRate = riff.byteRate, byteRate > 0, let data = riff.dataSize {
            let available = max(0, min(data, file.facts.size - riff.dataStart))
            duration = Double(available) / Double(byteRate)
            audioBitRate = Int64(byteRate) * 8
            if available < data * 9 / 10 {
                damage.append("the data chunk runs past the end of the file (truncated)")
                declaredDuration = Double(data) / Double(byteRate)
            }
        }
    }
}
