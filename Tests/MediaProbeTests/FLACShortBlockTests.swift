import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// A FLAC whose Vorbis comment is its last metadata block and declares a length shorter than its contents
/// (mutagen's `52-too-short-block-size.flac` is one: an old tagger wrote it). TagLib 1.13 takes the file
/// (the declared end is where it thinks the audio starts), but its comment parser stops at the first field
/// that runs past the declared length: no tags. mutagen and libFLAC read the block by its structure, and so
/// must mlib (issue 25 did for a block TagLib refuses; this one TagLib accepts, and its tags were lost).
/// The file is made here: ffmpeg's FLAC, its blocks rewritten as STREAMINFO + the comment (last, its
/// length ending 8 bytes into its first field) + the audio frames; and a copy cut at half, as the mutagen
/// file is cut.
struct FLACShortBlockTests {
    static let ffmpeg = DeclaredDurationTests.ffmpeg

    static func make() throws -> (dir: URL, whole: MediaPath, cut: MediaPath) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-shortblock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let made = dir.appendingPathComponent("made.flac")
        let p = try ChildProcess.run(Self.ffmpeg!, ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "anoisesrc=d=5:c=pink:r=44100:a=0.3",
                                                     "-c:a", "flac", "-metadata", "title=Mother's Daughter", "-metadata", "artist=Tunng",
                                                     "-metadata", "album=Mother's Daughter and Other Songs", made.path])
        try #require(p.status == 0, "ffmpeg could not make a FLAC: \(p.stderr)")
        let data = [UInt8](try Data(contentsOf: made))
        try #require(data.starts(with: Array("fLaC".utf8)))
        var at = 4, streamInfo: [UInt8] = [], comment: [UInt8] = []
        while true {
            let last = data[at] & 0x80 != 0, kind = data[at] & 0x7F
            let size = Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
            let body = Array(data[(at + 4)..<(at + 4 + size)])
            if kind == 0 { streamInfo = body }
            if kind == 4 { comment = body }
            at += 4 + size
            if last { break }
        }
        try #require(streamInfo.count == 34 && comment.count > 100, "ffmpeg wrote no STREAMINFO or comment")
        func header(_ kind: UInt8, last: Bool, size: Int) -> [UInt8] {
            [(last ? 0x80 : 0) | kind, UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        }
        // Declared as the mutagen file's: the vendor string, the field count and 8 bytes of the first field.
        let vendor = Int(comment[0]) | Int(comment[1]) << 8 | Int(comment[2]) << 16 | Int(comment[3]) << 24
        let rewritten = Array("fLaC".utf8) + header(0, last: false, size: 34) + streamInfo
            + header(4, last: true, size: 4 + vendor + 4 + 8) + comment + data[at...]
        let whole = dir.appendingPathComponent("short-block.flac"), cut = dir.appendingPathComponent("short-block-cut.flac")
        try Data(rewritten).write(to: whole)
        try #require(rewritten.count > 2 * MediaFile.window, "the file is inside the head and tail windows")
        try Data(rewritten.prefix(rewritten.count / 2)).write(to: cut)
        return (dir, MediaPath(whole.path), MediaPath(cut.path))
    }

    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func aCommentBlockDeclaredTooShortKeepsItsTags() throws {
        let (dir, whole, cut) = try Self.make()
        defer { try? FileManager.default.removeItem(at: dir) }
        for detail in [MediaProbe.Detail.library, .streams] {
            let files: [(MediaPath, Double, Double?)] = [(whole, 5.0, nil), (cut, 2.5, 5.0)]
            for (path, seconds, declared) in files {
                let r = try MediaProbe.probe(path, detail: detail)
                let name = "\(path.lastComponent), \(detail)"
                #expect(r.item.title == "Mother's Daughter", "\(name): \(r.item.title ?? "none")")
                #expect(r.item.artist == "Tunng", "\(name)")
                #expect(r.item.albumTitle == "Mother's Daughter and Other Songs", "\(name)")
                let duration = r.item.playbackDuration
                #expect(abs(duration - seconds) < 0.3, "\(name): duration \(duration)")
                if let declared {
                    #expect(abs((r.item[.declaredDuration]?.real ?? -1) - declared) < 0.05, "\(name): declared \(r.item[.declaredDuration].debugDescription)")
                } else {
                    #expect(r.item[.declaredDuration] == nil, "\(name)")
                }
                #expect(r.isPartial, "\(name): a block declared too short is damage")
            }
        }
    }
}
