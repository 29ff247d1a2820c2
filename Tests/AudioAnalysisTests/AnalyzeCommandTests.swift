import Foundation
import Testing
import TestSupport

/// `mlib analyze` and `mlib dupes` as a user runs them: the JSON summary, the clusters best first, and the
/// results reachable from `mlib ls`.
@Suite("mlib analyze and mlib dupes")
struct AnalyzeCommandTests {
    static func mlib(_ arguments: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run(ChildProcess.mlib.path, arguments)
    }

    @Test func analyzeThenDupesFindTheReencoding() throws {
        let fixtures = try AnalysisFixtures()
        let music = fixtures.directory.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let flac = try fixtures.music("music/song.flac", seconds: 20)
        _ = try fixtures.reencode(flac, "music/song.mp3", options: ["-b:a", "128k"])
        _ = try fixtures.music("music/other.flac", seconds: 20, seed: 8, frequency: 415)
        let library = fixtures.directory.appendingPathComponent("library.sqlite").path
        #expect(try Self.mlib(["scan", "--quiet", "--library", library, music.path]).status == 0)

        let analyze = try Self.mlib(["analyze", "--json", "-j1", "--library", library])   // -j1 as scan's (was refused)
        #expect(analyze.status == 0, "\(analyze.stderr)")
        let summary = try JSONSerialization.jsonObject(with: analyze.stdout) as? [String: Any]
        #expect(summary?["analysed"] as? Int == 3 && summary?["matched"] as? Int == 3)
        #expect(try Self.mlib(["analyze", "--library", library]).out.contains("analysed 0 of 3 items (0 albums), 3 already up to date"))

        let dupes = try Self.mlib(["dupes", "--json", "--library", library])
        #expect(dupes.status == 0, "\(dupes.stderr)")
        let clusters = try JSONSerialization.jsonObject(with: dupes.stdout) as? [[String: Any]]
        let members = (clusters?.first?["members"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        #expect(clusters?.count == 1)
        #expect(members.map { URL(fileURLWithPath: $0).lastPathComponent } == ["song.flac", "song.mp3"])
        let text = try Self.mlib(["dupes", "--library", library]).out.split(separator: "\n")
        #expect(text.count == 2 && text[0].hasPrefix("flac\t") && text[1].hasPrefix("mp3\t128 kb/s\t"), "\(text)")
        // Sizes in binary units, as `mlib info` and `stats` write them (it said "321 KB").
        #expect(text.allSatisfy { $0.split(separator: "\t")[2].hasSuffix("iB") }, "\(text)")

        let loudest = try Self.mlib(["ls", "--library", library, "--sort", "loudness", "-f", "$path", "loudness > -60"]).out
        #expect(loudest.split(separator: "\n").count == 3)
    }

    /// An album with a track that no longer decodes: each later run decodes that track alone (it failed
    /// again, so the album's gain cannot be made), not the whole album again every run (issue 39).
    @Test func anAlbumWithAFailingTrackIsNotDecodedAgainWhole() throws {
        let fixtures = try AnalysisFixtures()
        let music = fixtures.directory.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        var tracks: [String] = []
        for n in 1...3 {
            tracks.append(try fixtures.tone("music/\(n).flac", seconds: 2, frequency: 300 + 100 * n,
                                            extra: ["-metadata", "album=One Album", "-metadata", "artist=Band", "-metadata", "track=\(n)"]))
        }
        let library = fixtures.directory.appendingPathComponent("library.sqlite").path
        #expect(try Self.mlib(["scan", "--quiet", "--library", library, music.path]).status == 0)
        try Data(repeating: 0x55, count: 4_096).write(to: URL(fileURLWithPath: tracks[1]))   // broken after the scan

        func run() throws -> [String: Any] {
            let r = try Self.mlib(["analyze", "--json", "--library", library])
            #expect(r.status == 1, "\(r.stderr)")
            return try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] ?? [:]
        }
        let first = try run()
        #expect(first["analysed"] as? Int == 2 && (first["failures"] as? [Any])?.count == 1, "\(first)")
        let second = try run()
        #expect(second["analysed"] as? Int == 0, "the album's two good tracks were decoded again: \(second)")
        #expect((second["failures"] as? [Any])?.count == 1 && second["upToDate"] as? Int == 2, "\(second)")
        #expect(try Self.mlib(["ls", "--library", library, "--count", "albumGain:-100..100"]).out == "0\n")

        // Once the track decodes again, the album's gain is made over all three (the two decoded again).
        _ = try fixtures.tone("music/2.flac.new.flac", seconds: 2, frequency: 500,
                              extra: ["-metadata", "album=One Album", "-metadata", "artist=Band", "-metadata", "track=2"])
        try FileManager.default.removeItem(atPath: tracks[1])
        try FileManager.default.moveItem(atPath: tracks[1] + ".new.flac", toPath: tracks[1])
        #expect(try Self.mlib(["scan", "--quiet", "--library", library, music.path]).status == 0)
        let fixed = try Self.mlib(["analyze", "--json", "--library", library])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        let summary = try JSONSerialization.jsonObject(with: fixed.stdout) as? [String: Any] ?? [:]
        #expect(summary["analysed"] as? Int == 3 && summary["albums"] as? Int == 1, "\(summary)")
        #expect(try Self.mlib(["ls", "--library", library, "--count", "albumGain:-100..100"]).out == "3\n")
    }

    /// A file that no longer decodes is one failure line naming it once (it read `F: F: reason`).
    @Test func aFileThatNoLongerDecodesIsNamedOnce() throws {
        let fixtures = try AnalysisFixtures()
        try FileManager.default.createDirectory(at: fixtures.directory.appendingPathComponent("music"), withIntermediateDirectories: true)
        let song = try fixtures.tone("music/song.wav", seconds: 2)
        let library = fixtures.directory.appendingPathComponent("library.sqlite").path
        #expect(try Self.mlib(["scan", "--quiet", "--library", library, fixtures.directory.appendingPathComponent("music").path]).status == 0)
        try Data(repeating: 0x55, count: 4_096).write(to: URL(fileURLWithPath: song))   // overwritten after the scan

        let run = try Self.mlib(["analyze", "--library", library])
        let lines = run.stderr.split(separator: "\n").filter { $0.contains(song) }
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first.map { $0.components(separatedBy: song).count - 1 } == 1, "\(run.stderr)")
    }
}
