import Foundation
import Testing
import TestSupport
@testable import TagWriting

/// `TagEdit.rating`: each format's rating tag as the players read it, read back by mutagen, with the decoded
/// audio and the other tags unchanged.
@Suite final class RatingWriteTests: TagWorkspace {
    /// 4 stars as each format's convention spells it (mlib(1), TAG MAPPING), as read_tags.py prints it.
    static func fourStars(_ format: TagFixtures.Format) -> String? {
        switch format.name {
        case "mp3-id3v2.3", "mp3-id3v2.4", "aiff": "no@email:196:0"
        case "flac", "ogg-vorbis", "opus", "ogg-flac", "wavpack", "ape": "0.8"
        case "m4a": "80"
        case "asf": "75"
        case "wav": "no@email:196:0"
        default: nil
        }
    }

    @Test(arguments: TagFixtures.formats)
    func writesTheRating(_ format: TagFixtures.Format) throws {
        let path = try TagFixtures.make(format, in: dir)
        let audio = try TagFixtures.audioMD5(path)
        let before = try TagFixtures.mutagen(path)
        #expect(before["rating"] == nil)

        let report = writer.edit(path, TagEdit(changes: [], rating: 4), write: true)
        #expect(report.error == nil, "\(report.error ?? "")")
        #expect(report.unsupported.isEmpty, "unsupported: \(report.unsupported)")
        #expect(report.changes.count == 1, "\(report.changes)")
        var after = try TagFixtures.mutagen(path)
        #expect(after["rating"] as? [String] == [Self.fourStars(format)!])
        #expect(try TagFixtures.audioMD5(path) == audio)
        // The other tags as they were.
        after["rating"] = nil
        #expect(NSDictionary(dictionary: after).isEqual(to: before), "\(before) → \(after)")

        // The same rating again changes nothing; another one replaces it (one rating tag, not two).
        #expect(writer.edit(path, TagEdit(changes: [], rating: 4), write: true).outcome == .unchanged)
        #expect(writer.edit(path, TagEdit(changes: [], rating: 5), write: true).error == nil)
        let five = try TagFixtures.mutagen(path)["rating"] as? [String]
        #expect(five?.count == 1)
        #expect(five?.first != Self.fourStars(format))
        #expect(try TagFixtures.audioMD5(path) == audio)
    }

    /// No rating (nil or 0): nothing written, a rating the file has left alone.
    @Test func anUnratedEditWritesNothing() throws {
        let path = try TagFixtures.make(TagFixtures.formats[0], in: dir)
        let stamp = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        for rating in [nil, 0] as [Int?] {
            let report = writer.edit(path, TagEdit(changes: [], rating: rating), write: true)
            #expect(report.outcome == .unchanged)
            #expect(report.changes.isEmpty)
        }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == stamp)
    }

    /// An MP3 rated by another player (foobar2000's POPM email, a play counter): that frame gets the rating,
    /// its email and counter kept, no second frame added.
    @Test func anotherPlayersPopularimeterIsUpdated() throws {
        let path = try TagFixtures.make(TagFixtures.formats[1], in: dir)
        try TagFixtures.python("""
            from mutagen.id3 import ID3, POPM
            t = ID3(p); t.add(POPM(email="foobar2000", rating=64, count=12)); t.save(p, v2_version=3)
            """, path)
        let report = writer.edit(path, TagEdit(changes: [], rating: 3), write: true)
        #expect(report.error == nil)
        #expect(report.changes == [.init(key: "POPM", old: ["64"], new: ["128"])])
        #expect(try TagFixtures.mutagen(path)["rating"] as? [String] == ["foobar2000:128:12"])
        #expect(try TagFixtures.mutagen(path)["id3"] as? String == "2.3")
    }

    /// An M4A rated by MediaMonkey or mutagen (`rate` as text): the text replaced, shown old → new.
    @Test func anMP4TextRateIsReplaced() throws {
        let path = try TagFixtures.make(TagFixtures.formats.first { $0.name == "m4a" }!, in: dir)
        try TagFixtures.python("import mutagen\nf = mutagen.File(p); f['rate'] = ['60']; f.save()", path)
        let report = writer.edit(path, TagEdit(changes: [], rating: 4), write: true)
        #expect(report.error == nil)
        #expect(report.changes == [.init(key: "rate", old: ["60"], new: ["80"])])
        #expect(try TagFixtures.mutagen(path)["rating"] as? [String] == ["80"])
    }

    /// A WAV tagged in RIFF INFO only has no rating tag: reported, nothing written.
    @Test func aRiffInfoWavReportsTheRatingUnsupported() throws {
        let path = dir.appendingPathComponent("info.wav").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=duration=0.5", "-c:a", "pcm_s16le",
                                                "-metadata", "title=Old", path])
        #expect(r.status == 0)
        let report = writer.edit(path, TagEdit(changes: [], rating: 4), write: true)
        #expect(report.unsupported == ["(rating)"])
        #expect(report.outcome == .unchanged)
    }
}
