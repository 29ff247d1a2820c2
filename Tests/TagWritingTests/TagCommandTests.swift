import Foundation
import Testing
import TestSupport

/// `mlib tag` end to end: the library kept in step (ids, user data, nothing left for the next scan),
/// --dry-run, --json, --files, and `mlib set` pointing to it.
@Suite final class TagCommandTests {
    deinit { try? FileManager.default.removeItem(at: dir) }

    let dir: URL
    let library: String
    let music: URL

    init() throws {
        dir = try TagFixtures.temporaryDirectory()
        library = dir.appendingPathComponent("library.sqlite").path
        music = dir.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        for (i, format) in TagFixtures.formats.enumerated() { _ = try TagFixtures.make(format, in: music, name: "\(i)-\(format.name)") }
    }

    func mlib(_ args: [String], library: Bool = true) throws -> ChildProcess.Output {
        try ChildProcess.run(ChildProcess.mlib.path, args + (library ? ["--library", self.library] : []),
                             environment: ["MLIB_TAG_JOURNAL": dir.appendingPathComponent("journal").path, "HOME": dir.path,
                                           "XDG_DATA_HOME": dir.appendingPathComponent("data").path])
    }

    func listing() throws -> [String] {
        try mlib(["ls", "-f", "$persistentID $rating $playCount $title $artist"]).out.split(separator: "\n").map(String.init).sorted()
    }

    @Test func theLibraryKeepsStep() throws {
        #expect(try mlib(["scan", music.path]).status == 0)
        #expect(try mlib(["rate", "title:Old", "4"]).status == 0)
        _ = try mlib(["set", "plays=7", "title:Old"])
        let before = try listing()
        #expect(before.count == TagFixtures.formats.count)

        let dry = try mlib(["tag", "title:Old", "title=Ünïcode", "artist+=Guest", "--dry-run"])
        #expect(dry.status == 0)
        #expect(dry.out.contains("TITLE: Old → Ünïcode"), "\(dry.out)")
        #expect(try listing() == before)

        let tag = try mlib(["tag", "title:Old", "title=Ünïcode", "artist+=Guest", "--yes"])
        #expect(tag.status == 0, "\(tag.stderr)")
        #expect(tag.out.contains("wrote \(TagFixtures.formats.count) files"), "\(tag.out)")
        let after = try listing()
        // Same ids, ratings and play counts; the new title and artists read back from the files.
        #expect(after.map { $0.split(separator: " ").prefix(3) } == before.map { $0.split(separator: " ").prefix(3) })
        #expect(after.allSatisfy { $0.contains(" Ünïcode Someone; Guest") }, "\(after)")
        // Nothing left for the next scan.
        let scan = try mlib(["scan", music.path])
        #expect(scan.out.contains("0 added, 0 updated"), "\(scan.out)")
    }

    /// The refresh after a write reads exactly the written files: a file that came beside them since the
    /// last scan is left to the next scan (a scan of their directories added it, and read every file again
    /// whose stamp changed).
    @Test func theRefreshReadsOnlyTheWrittenFiles() throws {
        #expect(try mlib(["scan", music.path]).status == 0)
        let newcomer = try TagFixtures.make(TagFixtures.formats[0], in: music, name: "newcomer")
        try TagFixtures.python("import mutagen\nf = mutagen.File(p); f['title'] = ['Newcomer']; f.save()", newcomer)
        let tag = try mlib(["tag", "title:Old", "--yes", "MOOD=calm"])
        #expect(tag.status == 0, "\(tag.stderr)")
        #expect(tag.out.contains("wrote \(TagFixtures.formats.count) files"), "\(tag.out)")
        #expect(try mlib(["ls", "title:Newcomer"]).out.isEmpty)
        let scan = try mlib(["scan", music.path])
        #expect(scan.out.contains("1 added, 0 updated"), "\(scan.out)")
    }

    @Test func filesWithoutALibraryAndJSON() throws {
        let path = music.appendingPathComponent("0-flac.flac").path
        let r = try mlib(["tag", "--files", path, "MOOD=calm", "comments!", "--json"], library: false)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]]
        #expect(rows?.first?["outcome"] as? String == "in place")     // ffmpeg's FLAC has 8 KiB of padding
        #expect((rows?.first?["changes"] as? [[String: Any]])?.first?["key"] as? String == "MOOD")
        #expect(!FileManager.default.fileExists(atPath: library))
    }

    /// A text file named .mp3 is not written: TagLib's MPEG parser opened it and the save gave it an ID3v2
    /// tag, which made `mlib info` read it as music. One line naming the file, exit 1, the bytes as they were.
    @Test func aFileWithoutAudioIsNotWritten() throws {
        let path = dir.appendingPathComponent("notes.mp3").path
        let text = Data("not audio at all\n".utf8)
        try text.write(to: URL(fileURLWithPath: path))
        let r = try mlib(["tag", "--files", path, "title=x", "--yes"], library: false)
        #expect(r.status == 1, "\(r.stdout)")
        #expect(r.stderr.contains("\(path): "), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
    }

    @Test func setPointsToTag() throws {
        #expect(try mlib(["scan", music.path]).status == 0)
        let r = try mlib(["set", "title=Foo", "artist:Someone"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("mlib tag"), "\(r.stderr)")
    }

    /// --write-ratings: each rated item's rating into its file's rating tag (read back as the tag rating),
    /// the dry run showing it, an unrated item's file untouched, the next scan finding nothing to do.
    @Test func writeRatings() throws {
        let lone = try TagFixtures.make(TagFixtures.formats[0], in: music, name: "lone")
        try TagFixtures.python("import mutagen\nf = mutagen.File(p); f['title'] = ['Lone']; f.save()", lone)
        #expect(try mlib(["scan", music.path]).status == 0)
        #expect(try mlib(["rate", "title:Old", "4"]).status == 0)
        let loneStamp = try FileManager.default.attributesOfItem(atPath: lone)[.modificationDate] as? Date

        let dry = try mlib(["tag", "--all", "--write-ratings", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.out.contains("POPM: (none) → 196"), "\(dry.out)")
        #expect(dry.out.contains("FMPS_RATING: (none) → 0.8"), "\(dry.out)")
        #expect(dry.out.contains("rate: (none) → 80"), "\(dry.out)")
        #expect(dry.out.contains("WM/SharedUserRating: (none) → 75"), "\(dry.out)")
        #expect(try mlib(["ls", "-f", "$tagRating", "title:Old"]).out.split(separator: "\n").allSatisfy { $0.isEmpty || $0 == "0" })

        let before = try listing()
        let tag = try mlib(["tag", "--all", "--write-ratings", "--yes"])
        #expect(tag.status == 0, "\(tag.stderr)")
        #expect(tag.out.contains("wrote \(TagFixtures.formats.count) files"), "\(tag.out)")
        #expect(try listing() == before)
        // Every rated file's tag now says 4 stars, as mlib reads it back.
        let tagRatings = try mlib(["ls", "-f", "$tagRating", "title:Old"]).out.split(separator: "\n")
        #expect(tagRatings == Array(repeating: "4", count: TagFixtures.formats.count), "\(tagRatings)")
        #expect(try FileManager.default.attributesOfItem(atPath: lone)[.modificationDate] as? Date == loneStamp)
        #expect(try TagFixtures.mutagen(lone)["rating"] == nil)
        let scan = try mlib(["scan", music.path])
        #expect(scan.out.contains("0 added, 0 updated"), "\(scan.out)")
        // Written again: nothing to change.
        #expect(try mlib(["tag", "--all", "--write-ratings", "--yes"]).out.contains("wrote 0 files"))
        // Not with --files (no index to take ratings from).
        let files = try mlib(["tag", "--files", lone, "--write-ratings"], library: false)
        #expect(files.status != 0)
        #expect(files.stderr.contains("--write-ratings"), "\(files.stderr)")
    }
}
