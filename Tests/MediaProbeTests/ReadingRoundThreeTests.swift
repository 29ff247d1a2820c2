import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// Issue 49's files that another reader understands and mlib misread, each made here (ffmpeg, and bytes
/// written by `ReadingRoundThreeFiles`), each read by both probe paths (the scan's `.library` and `info`'s
/// `.streams`), which must agree.
struct ReadingRoundThreeTests {
    static let ffmpeg = DeclaredDurationTests.ffmpeg
    static let details: [MediaProbe.Detail] = [.library, .streams]

    /// A 32-bit FLAC (libFLAC 1.4 writes them; FFmpeg 5.1 has no decoder for them and decodes nothing): its
    /// length is STREAMINFO's sample count, and nothing is missing, so it is not "truncated". Before: 0 s,
    /// "the audio stops before the length STREAMINFO declares (truncated)".
    @Test func aThirtyTwoBitFLACHasItsSTREAMINFOLengthAndIsWhole() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("wide.flac")
        try Data(ReadingRoundThreeFiles.flac32(seconds: 2)).write(to: url)
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - 2) < 0.001, "\(detail): \(r.item.playbackDuration)")
            #expect(!r.isPartial, "\(detail): \(r.warnings)")
            #expect(r.item[.declaredDuration] == nil, "\(detail)")
            #expect(r.item[.bitDepth]?.integer == 32, "\(detail): \(r.item[.bitDepth].debugDescription)")
            #expect(r.item.title == "Thirty-two", "\(detail)")
        }
    }

    /// Garbage before the first MP3 frame (100 kB and 200 kB; the 100 kB one shaped like AMR-NB frames, which
    /// FFmpeg's probing takes for 76 s of 8 kHz AMR, the 200 kB one random, which it takes for an MP3 of
    /// 13.6 s), then a 1.045 s MP3 at 44.1 kHz: the file is named .mp3 and holds a run of valid frames, as
    /// mutagen and TagLib find it. Before: AMR (or 13.6 s).
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func junkBeforeTheFirstMP3FrameIsSkipped() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mp3 = try ReadingRoundThreeFiles.ffmpeg(dir, "clean.mp3", seconds: 1.045, ["-c:a", "libmp3lame", "-b:a", "128k"])
        let clean = try MediaProbe.probe(MediaPath(mp3.path), detail: .library).item.playbackDuration
        let files = [("amr-like-junk.mp3", ReadingRoundThreeFiles.amrLikeJunk(100_000)),
                     ("random-junk.mp3", ReadingRoundThreeFiles.randomJunk(200_000))]
        for (name, junk) in files {
            let url = dir.appendingPathComponent(name)
            try Data(junk + [UInt8](try Data(contentsOf: mp3))).write(to: url)
            for detail in Self.details {
                let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
                #expect(r.item[.audioCodec]?.text == "mp3", "\(name), \(detail): \(r.item[.audioCodec].debugDescription)")
                #expect(r.item[.sampleRate]?.integer == 44100, "\(name), \(detail)")
                #expect(abs(r.item.playbackDuration - clean) < 0.03, "\(name), \(detail): \(r.item.playbackDuration) against \(clean)")
                #expect(r.streams.filter { $0.kind == .audio }.map(\.codec) == ["mp3"], "\(name), \(detail): \(r.streams.map(\.codec))")
            }
        }
    }

    /// An ID3v2.3 tag with an extended header (its size, 6, excludes itself in v2.3; TagLib 1.13 reads it as
    /// v2.4's, which includes it, and loses the frames), and an ID3v1 tag: the v2 frames are the tags, as
    /// ffprobe, mediainfo and mutagen read them. Before: "Title v1".
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func anID3v23TagWithAnExtendedHeaderIsRead() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mp3 = try ReadingRoundThreeFiles.ffmpeg(dir, "clean.mp3", seconds: 1, ["-c:a", "libmp3lame", "-b:a", "128k"])
        let url = dir.appendingPathComponent("extended.mp3")
        try Data(ReadingRoundThreeFiles.id3v23WithExtendedHeader() + [UInt8](try Data(contentsOf: mp3))
                 + ReadingRoundThreeFiles.id3v1(title: "Title v1", artist: "Artist v1", album: "Album v1", year: "2001")).write(to: url)
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(r.item.title == "Title v2", "\(detail): \(r.item.title ?? "none")")
            #expect(r.item.artist == "Artist v2", "\(detail): \(r.item.artist ?? "none")")
            #expect(r.item.albumTitle == "Album v2", "\(detail): \(r.item.albumTitle ?? "none")")
            #expect(r.item.albumTrackNumber == 7, "\(detail)")
            #expect(abs(r.item.playbackDuration - 1) < 0.05, "\(detail): \(r.item.playbackDuration)")
        }
    }

    /// RIFF INFO written in Windows-1252, as Windows taggers write it, in one LIST chunk and in two: read as
    /// cp1252 (mediainfo and exiftool do). Before: no title/artist/album from one chunk (TagLib takes the
    /// bytes for UTF-8 and returns nothing), U+FFFD from two.
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"), arguments: [1, 2])
    func windows1252RIFFInfoIsRead(chunks: Int) throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try ReadingRoundThreeFiles.ffmpeg(dir, "plain.wav", seconds: 1, ["-c:a", "pcm_s16le"])
        let url = dir.appendingPathComponent("cp1252-\(chunks).wav")
        let fields: [(String, String)] = [("INAM", "Café Ñandú – “live”"), ("IART", "Björk"), ("IPRD", "Débüt"), ("ICRD", "1993-07-05")]
        try Data(ReadingRoundThreeFiles.wavWithInfo(try Data(contentsOf: wav), fields: fields, chunks: chunks)).write(to: url)
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(r.item.title == "Café Ñandú – “live”", "\(chunks), \(detail): \(r.item.title ?? "none")")
            #expect(r.item.artist == "Björk", "\(chunks), \(detail): \(r.item.artist ?? "none")")
            #expect(r.item.albumTitle == "Débüt", "\(chunks), \(detail): \(r.item.albumTitle ?? "none")")
            #expect(r.item[.releaseDate]?.text == "1993-07-05", "\(chunks), \(detail): \(r.item[.releaseDate].debugDescription)")
            #expect(abs(r.item.playbackDuration - 1) < 0.01, "\(chunks), \(detail)")
            #expect(!r.isPartial, "\(chunks), \(detail): \(r.warnings)")
        }
    }

    /// A Vorbis comment (in a FLAC) whose values are Latin-1, not UTF-8: kept, decoded as cp1252, with a
    /// note; the valid field beside them unchanged. Before: the fields were dropped.
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func invalidUTF8InAVorbisCommentIsKeptAsWindows1252() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let flac = try ReadingRoundThreeFiles.ffmpeg(dir, "plain.flac", seconds: 1, ["-c:a", "flac"])
        let url = dir.appendingPathComponent("latin1.flac")
        let comments: [[UInt8]] = [Array("TITLE=Caf".utf8) + [0xE9, 0x20, 0xD1] + Array("and".utf8) + [0xFA],
                                   Array("ARTIST=Bj".utf8) + [0xF6] + Array("rk".utf8), Array("ALBUM=Plain ASCII".utf8)]
        try Data(try ReadingRoundThreeFiles.flacWithComment(try Data(contentsOf: flac), comments)).write(to: url)
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(r.item.title == "Café Ñandú", "\(detail): \(r.item.title ?? "none")")
            #expect(r.item.artist == "Björk", "\(detail): \(r.item.artist ?? "none")")
            #expect(r.item.albumTitle == "Plain ASCII", "\(detail)")
            #expect(r.warnings.contains { $0.contains("TITLE") && $0.contains("Windows-1252") }, "\(detail): \(r.warnings)")
            #expect(!r.isPartial, "\(detail): \(r.warnings)")
        }
    }

    /// A VBR MP3 with a Xing header cut to 8 kB (as mutagen's `vbri.mp3` is: 8 kB of a 222 s file): its
    /// length is what its whole frames decode to (FFmpeg decodes them; the referee here), not the header's
    /// length scaled by the bytes left. Before: 0.72 s where 0.65 s decodes (the mutagen file: 0.246 s for 0.444 s).
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func aCutVBRMP3IsAsLongAsItsWholeFramesDecode() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try ReadingRoundThreeFiles.ffmpeg(dir, "vbr.mp3", seconds: 30, ["-c:a", "libmp3lame", "-q:a", "2"], noise: true)
        let url = dir.appendingPathComponent("vbr-cut.mp3")
        try Data(contentsOf: whole).prefix(8192).write(to: url)
        let decoded = try ReadingRoundThreeFiles.decodedSeconds(url)
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - decoded) < 0.027, "\(detail): \(r.item.playbackDuration), FFmpeg decodes \(decoded)")
            #expect(r.isPartial, "\(detail)")
            #expect(abs((r.item[.declaredDuration]?.real ?? 0) - 30) < 0.1, "\(detail): \(r.item[.declaredDuration].debugDescription)")
        }
    }

    /// A 256 kb/s WMA cut to 32 kB (as mutagen's `issue_29.wma` is): its length is the declared length's share
    /// of the whole data packets present (the container's own count), near what FFmpeg decodes. Before: 1.02 s
    /// (the file size at the bit rate, header and cut packet included) where 0.88 s decodes.
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func aCutWMAIsAsLongAsItsWholePackets() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try ReadingRoundThreeFiles.ffmpeg(dir, "whole.wma", seconds: 5, ["-c:a", "wmav2", "-b:a", "256k"], noise: true)
        let url = dir.appendingPathComponent("cut.wma")
        try Data(contentsOf: whole).prefix(32768).write(to: url)
        let decoded = try ReadingRoundThreeFiles.decodedSeconds(url)
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - decoded) < 0.06, "\(detail): \(r.item.playbackDuration), FFmpeg decodes \(decoded)")
            #expect(r.isPartial, "\(detail)")
            #expect(abs((r.item[.declaredDuration]?.real ?? 0) - 5) < 0.1, "\(detail): \(r.item[.declaredDuration].debugDescription)")
        }
    }

    /// A .3gp whose tags are 3GPP asset boxes (`titl`, `perf`, `auth`, `gnre`, `albm`; ffmpeg's 3gp muxer
    /// writes them, as phones do): read (mediainfo reads them). Before: no tags (FFmpeg and TagLib read none).
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func threeGPPAssetBoxesAreRead() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.ffmpeg(dir, "assets.3gp", seconds: 1, ["-c:a", "aac", "-ar", "8000", "-ac", "1",
            "-metadata", "title=Asset Title", "-metadata", "artist=Asset Performer", "-metadata", "author=Asset Author",
            "-metadata", "genre=Asset Genre", "-metadata", "album=Asset Album", "-f", "3gp"])
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(r.item.title == "Asset Title", "\(detail): \(r.item.title ?? "none")")
            #expect(r.item.artist == "Asset Performer", "\(detail)")
            #expect(r.item.genre == "Asset Genre", "\(detail)")
            #expect(r.item.albumTitle == "Asset Album", "\(detail)")
            #expect(r.item.tags["AUTHOR"] == "Asset Author", "\(detail): \(r.item.tags)")
        }
    }

    /// Dates written as RFC 2822 strings (mail and RSS style, as some podcast taggers write them): the day is
    /// the date's, not the time's hour. Before: "2002-03" (the hour 10 made the day ambiguous).
    @Test func anRFC2822DateKeepsItsDay() {
        #expect(TagMapping.releaseDate("Tue, 05 Mar 2002 10:00:00 +0000") == "2002-03-05")
        #expect(TagMapping.releaseDate("5 Mar 2002 23:59 GMT") == "2002-03-05")
        #expect(TagMapping.releaseDate("Oct 3, 1995") == "1995-10-03")           // unchanged
    }

    /// The same in an Ogg Vorbis and an Ogg Opus file's comment packet (`ReadingRoundThreeFiles.latin1Ogg`:
    /// ffmpeg's "title=Cafe" and "artist=Bjork" with Latin-1 é and ö, the pages' CRCs mended). Before: both
    /// fields dropped.
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"), arguments: [("latin1.ogg", "libvorbis"), ("latin1.opus", "libopus")])
    func invalidUTF8InAnOggCommentIsKeptAsWindows1252(name: String, codec: String) throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.latin1Ogg(dir, name, codec: codec)
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(r.item.title == "Café", "\(name), \(detail): \(r.item.title ?? "none")")
            #expect(r.item.artist == "Björk", "\(name), \(detail): \(r.item.artist ?? "none")")
            #expect(!r.isPartial, "\(name), \(detail): \(r.warnings)")
        }
    }
}
