import Foundation

extension ReadingRoundThreeFiles {
    /// One file of a kind issue 49 names, as `everyKind` wrote it, and what a read of it must say.
    public struct Made: Sendable {
        public var name: String
        /// Whether this machine's FFmpeg decodes it (32-bit FLAC: FFmpeg 6.1 and later do, 5.1 does not).
        public var decodable: Bool
        public var title: String?
        /// The length it must read as (within 0.05 s); nil: not checked (a cut file's, which the probe tests hold).
        public var seconds: Double?
        public var releaseDate: String?
    }

    /// One file of every kind issue 49 names that can be made here, written into `dir`, made as the probe
    /// tests make them (ffmpeg's output, rewritten by a few bytes, or bytes written here): the scan test puts
    /// them in one folder. Each case's own test (ReadingRoundThreeTests, ContainerIndexLengthTests,
    /// UndecodableCodecTests, TheoraOggTests, ReadingRoundThreeGapTests, ...) says what was wrong with it before.
    public static func everyKind(in dir: URL) throws -> [Made] {
        var made: [Made] = []
        func write(_ name: String, _ bytes: [UInt8]) throws { try Data(bytes).write(to: dir.appendingPathComponent(name)) }
        func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
        let scratch = dir.appendingPathComponent(".sources")          // hidden: a scan skips it
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        // A codec this FFmpeg cannot decode, in a container it reads.
        try write("wide-32bit.flac", flac32(seconds: 2))
        made.append(Made(name: "wide-32bit.flac", decodable: try UndecodableMedia.ffmpegDecodes(dir.appendingPathComponent("wide-32bit.flac")),
                         title: "Thirty-two", seconds: 2))
        for (fourcc, config) in [("ac-4", "dac4"), ("mhm1", "mhaC"), ("fpcm", "pcmC"), ("iamf", "iacb"), ("dtsx", "udts")] {
            _ = try UndecodableMedia.mp4(in: dir, fourcc: fourcc, config: config)
            made.append(Made(name: "\(fourcc).mp4", decodable: false, title: "Four Sees", seconds: 0.76))
        }
        // Junk before the first MP3 frame.
        let mp3 = try ffmpeg(scratch, "clean.mp3", seconds: 1.045, ["-c:a", "libmp3lame", "-b:a", "128k"])
        try write("amr-like-junk.mp3", amrLikeJunk(100_000) + bytes(mp3))
        try write("random-junk.mp3", randomJunk(200_000) + bytes(mp3))
        made += ["amr-like-junk.mp3", "random-junk.mp3"].map { Made(name: $0, decodable: true, seconds: 1.045) }
        // ID3v2.3 with an extended header, and ID3v1.
        try write("extended-header.mp3", id3v23WithExtendedHeader() + bytes(mp3)
                  + id3v1(title: "Title v1", artist: "Artist v1", album: "Album v1", year: "2001"))
        made.append(Made(name: "extended-header.mp3", decodable: true, title: "Title v2", seconds: 1.045))
        // Windows text: cp1252 RIFF INFO in one and two chunks; Latin-1 in a FLAC's Vorbis comment.
        let wav = try ffmpeg(scratch, "plain.wav", seconds: 1, ["-c:a", "pcm_s16le"])
        for chunks in [1, 2] {
            try write("cp1252-\(chunks).wav", wavWithInfo(try Data(contentsOf: wav), fields: [("INAM", "Café Ñandú"), ("IART", "Björk")], chunks: chunks))
            made.append(Made(name: "cp1252-\(chunks).wav", decodable: true, title: "Café Ñandú", seconds: 1))
        }
        let flac = try ffmpeg(scratch, "plain.flac", seconds: 1, ["-c:a", "flac"])
        try write("latin1.flac", flacWithComment(try Data(contentsOf: flac), [Array("TITLE=Caf".utf8) + [0xE9]]))
        made.append(Made(name: "latin1.flac", decodable: true, title: "Café", seconds: 1))
        // Cut files: a VBR MP3 cut to 8 kB, a WMA cut to 32 kB.
        let vbr = try ffmpeg(scratch, "vbr.mp3", seconds: 30, ["-c:a", "libmp3lame", "-q:a", "2"], noise: true)
        try write("vbr-cut.mp3", Array(try bytes(vbr).prefix(8192)))
        let wma = try ffmpeg(scratch, "whole.wma", seconds: 5, ["-c:a", "wmav2", "-b:a", "256k"], noise: true)
        try write("cut.wma", Array(try bytes(wma).prefix(32768)))
        made += ["vbr-cut.mp3", "cut.wma"].map { Made(name: $0, decodable: true) }
        // Lengths the container states: a WMA whose header states its peak rate, Musepack SV8.
        _ = try wmaStatingItsPeakRate(dir)
        made.append(Made(name: "peak-rate.wma", decodable: true, seconds: 3))
        try write("sv8.mpc", musepackSV8(samples: 230_731, silence: 0))
        made.append(Made(name: "sv8.mpc", decodable: true, seconds: 230_731.0 / 44100))
        // Musepack with ID3v2 in front, APEv2 and ID3v1 at the end: the APEv2 tag wins (ContainerIndexLengthTests).
        try write("tagged.mpc", id3v24([("TIT2", "Title ID3v2"), ("TPE1", "Baz artist")]) + musepackSV8(samples: 230_731, silence: 0)
                  + apeTag([("Title", "Title APE"), ("Artist", "Foo artist")]) + id3v1(title: "Title v1", artist: "Bar artist", album: "", year: ""))
        made.append(Made(name: "tagged.mpc", decodable: true, title: "Title APE", seconds: 230_731.0 / 44100))
        // An MP3 under 0.15 s.
        _ = try ffmpeg(dir, "short.mp3", seconds: 0.06, ["-c:a", "libmp3lame", "-b:a", "128k"])
        made.append(Made(name: "short.mp3", decodable: true, seconds: 0.06))
        // Tags: 3GPP asset boxes, an RFC 2822 date, Matroska's DATE_RELEASED.
        _ = try ffmpeg(dir, "assets.3gp", seconds: 1, ["-c:a", "aac", "-ar", "8000", "-ac", "1", "-metadata", "title=Asset Title",
                                                       "-metadata", "artist=Asset Performer", "-f", "3gp"])
        made.append(Made(name: "assets.3gp", decodable: true, title: "Asset Title", seconds: 1))
        _ = try ffmpeg(dir, "rfc2822.mp3", seconds: 1, ["-c:a", "libmp3lame", "-metadata", "title=Mail Date",
                                                        "-metadata", "date=Tue, 05 Mar 2002 10:00:00 +0000"])
        made.append(Made(name: "rfc2822.mp3", decodable: true, title: "Mail Date", seconds: 1, releaseDate: "2002-03-05"))
        _ = try ffmpeg(dir, "released.mka", seconds: 1, ["-c:a", "libvorbis", "-metadata", "title=Released",
                                                         "-metadata", "DATE_RELEASED=2003-05-17"])
        made.append(Made(name: "released.mka", decodable: true, title: "Released", seconds: 1, releaseDate: "2003-05-17"))
        // Text alone in an MP4 (a subtitle track): a media file, not decodable.
        let srt = scratch.appendingPathComponent("words.srt")
        try "1\n00:00:00,000 --> 00:00:02,000\nHello\n".write(to: srt, atomically: true, encoding: .utf8)
        for (name, codec) in [("text.mp4", "mov_text"), ("text.mkv", "srt")] {
            let t = try ChildProcess.run(UndecodableMedia.requireFFmpeg(), ["-nostdin", "-v", "error", "-y", "-i", srt.path, "-c:s", codec,
                                                                            "-metadata", "title=Words", dir.appendingPathComponent(name).path])
            guard t.status == 0 else { throw TestFailure("ffmpeg could not make \(name): \(t.stderr)") }
            made.append(Made(name: name, decodable: false, title: "Words", seconds: 2))
        }
        // Sample entries no encoder here writes: a CENC-encrypted AAC track, Dolby Vision AV1; and an HEVC
        // MP4 whose first frames carry an unknown SEI (ProtectedSampleEntryTests, HEVCUnknownSEITests).
        _ = try cencEncryptedAAC(dir)
        made.append(Made(name: "cenc.mp4", decodable: false, title: "Sealed", seconds: 0.76))
        _ = try dolbyVisionAV1(dir)
        made.append(Made(name: "dolby-vision.mp4", decodable: false, title: "Vision", seconds: 0.4))
        _ = try hevcWithUnknownSEI(dir)
        made.append(Made(name: "unknown-sei.mp4", decodable: true, title: "Unknown SEI", seconds: 0.44))
        // The last cases (ReadingRoundThreeGapTests, ReadingRoundThreeTests, ScriptDigitDateTests,
        // FLACShortBlockTests): Latin-1 in an Ogg Vorbis and an Ogg Opus comment, dates in Arabic-Indic digits
        // and split over TYER/TDAT with ID3v1, a comment block declared too short, an MP3 of delay and padding
        // alone (no audio: 0 s), ADIF AAC, Speex.
        for (name, codec) in [("latin1.ogg", "libvorbis"), ("latin1.opus", "libopus")] {
            _ = try latin1Ogg(dir, name, codec: codec)
            made.append(Made(name: name, decodable: true, title: "Café", seconds: 1))
        }
        _ = try scriptDigitDateMP3(dir)
        made.append(Made(name: "arabic-date.mp3", decodable: true, title: "Arabic", seconds: 1, releaseDate: "2004-03-05"))
        _ = try combinedDateMP3(dir)
        made.append(Made(name: "combined-date.mp3", decodable: true, title: "Combined", seconds: 1, releaseDate: "2004-04-03"))
        let shortBlock = try shortBlockFLAC(dir)
        try FileManager.default.removeItem(at: shortBlock.cut)
        made.append(Made(name: "short-block.flac", decodable: true, title: "Mother's Daughter", seconds: 5))
        _ = try mp3WhollyPadded(dir)
        made.append(Made(name: "wholly-padded.mp3", decodable: true, seconds: 0))
        let adifFile = try adif(dir)
        made.append(Made(name: "adif.aac", decodable: true, seconds: adifFile.seconds))
        _ = try speex(dir)
        made.append(Made(name: "speex.spx", decodable: true, title: "Spoken", seconds: 3))
        // Theora in Ogg, with Vorbis.
        let p = try ChildProcess.run(UndecodableMedia.requireFFmpeg(), ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=d=2:s=160x120:r=25",
                                                                        "-f", "lavfi", "-i", "sine=d=2:r=44100", "-c:a", "libvorbis", "-c:v", "libtheora",
                                                                        "-metadata", "title=Moving", "-shortest", dir.appendingPathComponent("theora.ogv").path])
        guard p.status == 0 else { throw TestFailure("ffmpeg could not make an .ogv: \(p.stderr)") }
        made.append(Made(name: "theora.ogv", decodable: true, title: "Moving", seconds: 2))
        return made
    }
}
