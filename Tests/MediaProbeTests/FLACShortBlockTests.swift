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
/// The file is made here (`ReadingRoundThreeFiles.shortBlockFLAC`): ffmpeg's FLAC, its blocks rewritten as
/// STREAMINFO + the comment (last, its length ending 8 bytes into its first field) + the audio frames; and a
/// copy cut at half, as the mutagen file is cut.
struct FLACShortBlockTests {
    static let ffmpeg = DeclaredDurationTests.ffmpeg

    static func make() throws -> (dir: URL, whole: MediaPath, cut: MediaPath) {
        let dir = try ReadingRoundThreeFiles.directory()
        let (whole, cut) = try ReadingRoundThreeFiles.shortBlockFLAC(dir)
        let size = (try FileManager.default.attributesOfItem(atPath: whole.path)[.size] as? Int) ?? 0
        try #require(size > 2 * MediaFile.window, "the file is inside the head and tail windows")
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
