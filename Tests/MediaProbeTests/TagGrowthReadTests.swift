import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// Reads that must not change when a tag write fills or grows a tag (issue 46): `mlib tag` compares the file
/// as this reader reads it before and after, so a reading that depends on a tag's size or emptiness makes it
/// refuse writes that mutagen makes (12 MP3s of /work/corpora/c2k, the corpus's junk.mp3).
struct TagGrowthReadTests {
    static let ffmpeg = DeclaredDurationTests.ffmpeg
    static let details: [MediaProbe.Detail] = [.library, .streams]

    /// An MP3 as /work/shared/tools/make-corpus.sh makes an untagged one (ffmpeg, bitexact, its metadata
    /// dropped): an ID3v2.4 tag of padding alone, and FFmpeg's "encoder" (the Info frame's "Lavf") on the
    /// stream. TagLib read the empty tag as a tag it could read nothing of, so FFmpeg's tags stood in and the
    /// reader showed ENCODER "Lavf"; the same file with a title showed none. Before: "Lavf" → none.
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func anEmptyID3TagDoesNotBringInFFmpegsEncoder() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let exact = ["-fflags", "+bitexact", "-flags:a", "+bitexact"]
        let source = try ReadingRoundThreeFiles.ffmpeg(dir, "source.mp3", seconds: 2, ["-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k"] + exact)
        func copy(_ name: String, _ metadata: [String]) throws -> URL {
            let url = dir.appendingPathComponent(name)
            let p = try ChildProcess.run(UndecodableMedia.requireFFmpeg(), ["-nostdin", "-v", "error", "-y", "-i", source.path, "-map", "0",
                                                                         "-c", "copy", "-map_metadata", "-1"] + metadata + exact + [url.path])
            guard p.status == 0 else { throw TestFailure("ffmpeg could not make \(name): \(p.stderr)") }
            return url
        }
        let empty = try copy("empty.mp3", []), titled = try copy("titled.mp3", ["-metadata", "title=Titled"])
        for detail in Self.details {
            let before = try MediaProbe.probe(MediaPath(empty.path), detail: detail)
            let after = try MediaProbe.probe(MediaPath(titled.path), detail: detail)
            #expect(before.tagFormat == "ID3v2.4", "\(detail): the file is not made as c2k's: \(before.tagFormat ?? "no tag")")
            #expect(after.item.title == "Titled", "\(detail)")
            var shown = after.item.tags
            shown["TITLE"] = nil
            #expect(before.item.tags == shown, "\(detail): empty tag \(before.item.tags), titled \(after.item.tags)")
        }
    }

    /// The corpus's junk.mp3 (Benchmarks/tag-safety-corpus.sh: ffmpeg's MP3 with an ID3v2.3 tag, then 100 kB
    /// of junk before the first frame), its tag grown by the padding a tag write adds. FFmpeg's mp3 demuxer
    /// looks for the first frame by seeking back to the tag's end after every byte it tries; each seek past
    /// its buffer re-read 64 KiB, so where the tag ended decided how often, and with TagLib's 1 KiB of
    /// padding the re-reads (68 MB) passed the reader's 64 MiB budget: "FFmpeg recognises no format in it",
    /// partial, where ffprobe reads the file. Before: partial at 1040 bytes of padding.
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func junkBeforeTheFramesReadsWhateverTheTagsPadding() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try ReadingRoundThreeFiles.ffmpeg(dir, "made.mp3", seconds: 3, ["-c:a", "libmp3lame", "-id3v2_version", "3",
            "-metadata", "title=Old", "-metadata", "artist=Someone", "-metadata", "album=Album", "-metadata", "date=2001",
            "-metadata", "track=1", "-metadata", "genre=Rock"])
        let bytes = [UInt8](try Data(contentsOf: made))
        let tagSize = bytes[6...9].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        let junk = (0..<100_000).map { i -> UInt8 in let b = UInt8((i * 7 + 3) % 251); return b == 0xFF ? 0 : b }
        for padding in [0, 1040, 2048, 4096] {
            let size = tagSize + padding
            let header = Array(bytes[0..<6]) + [UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F)]
            let url = dir.appendingPathComponent("junk-\(padding).mp3")
            try Data(header + bytes[10..<(10 + tagSize)] + [UInt8](repeating: 0, count: padding) + junk + bytes[(10 + tagSize)...]).write(to: url)
            for detail in Self.details {
                let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
                #expect(!r.isPartial, "padding \(padding), \(detail): \(r.warnings)")
                #expect(r.item.title == "Old", "padding \(padding), \(detail)")
                #expect(r.streams.filter { $0.kind == .audio }.map(\.codec) == ["mp3"], "padding \(padding), \(detail): \(r.streams.map(\.codec))")
                #expect(abs(r.item.playbackDuration - 3) < 0.05, "padding \(padding), \(detail): \(r.item.playbackDuration)")
            }
        }
    }
}
