import Foundation
@testable import Library
import MediaModel
import Testing
import TestSupport

/// `FileContainment`: the open-time rule every front serves files by (issue 37), and `CoverLookup` over it.
struct FileContainmentTests {
    let base: URL
    var root: URL { base.appendingPathComponent("root") }
    var outside: URL { base.appendingPathComponent("outside") }

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-containment-\(UUID().uuidString)")
        let fm = FileManager.default
        for directory in [root.appendingPathComponent("a/inner"), outside] {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        try Data("song".utf8).write(to: root.appendingPathComponent("a/song.flac"))
        try Data("inner".utf8).write(to: root.appendingPathComponent("a/inner/deep.flac"))
        try Data("secret".utf8).write(to: outside.appendingPathComponent("secret"))
    }

    func path(_ relative: String) -> MediaPath { MediaPath(root.appendingPathComponent(relative).path) }

    @Test func onlyWhatIsOpenedBeneathARootIsServed() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let fm = FileManager.default
        let rule = FileContainment(roots: [MediaPath(root.path)])
        #expect(try rule.open(path("a/song.flac")).readAll() == Array("song".utf8))
        // A link as the file itself: refused wherever it points.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("a/out.flac").path, withDestinationPath: outside.appendingPathComponent("secret").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("a/in.flac").path, withDestinationPath: root.appendingPathComponent("a/song.flac").path)
        #expect(throws: FileContainment.Refusal.outsideTheRoots) { try rule.open(path("a/out.flac")) }
        #expect(throws: FileContainment.Refusal.outsideTheRoots) { try rule.open(path("a/in.flac")) }
        // A linked directory: followed when it stays inside the roots, refused when it leads out.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("linked").path, withDestinationPath: root.appendingPathComponent("a/inner").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("escape").path, withDestinationPath: outside.path)
        #expect(try rule.open(path("linked/deep.flac")).readAll() == Array("inner".utf8))
        #expect(throws: FileContainment.Refusal.outsideTheRoots) { try rule.open(path("escape/secret")) }
        // Paths with .. and paths outside every root never get as far as open.
        #expect(throws: FileContainment.Refusal.outsideTheRoots) { try rule.open(path("a/../../outside/secret")) }
        #expect(throws: FileContainment.Refusal.outsideTheRoots) { try rule.open(MediaPath(outside.appendingPathComponent("secret").path)) }
        // Not a regular file (a FIFO would block a reader), and the size cap.
        #expect(mkfifo(root.appendingPathComponent("a/fifo.flac").path, 0o600) == 0)
        #expect(throws: FileContainment.Refusal.notARegularFile) { try rule.open(path("a/fifo.flac")) }
        #expect(throws: FileContainment.Refusal.tooLarge) { try rule.open(path("a/song.flac"), maximumSize: 3) }
        // A root that is itself a link is compared as what it is.
        let linkedRoot = base.appendingPathComponent("root-link")
        try fm.createSymbolicLink(atPath: linkedRoot.path, withDestinationPath: root.path)
        let viaLink = FileContainment(roots: [MediaPath(linkedRoot.path)])
        #expect(try viaLink.open(MediaPath(linkedRoot.appendingPathComponent("a/song.flac").path)).size == 4)
    }

    /// A client's path below a root (MPD's URIs): real names only, never `..` or `.`.
    @Test func clientPathsNameOnlyPathsBelowTheirRoot() {
        defer { try? FileManager.default.removeItem(at: base) }
        #expect(FileContainment.clientPath("../etc", below: MediaPath("/music")) == nil)
        #expect(FileContainment.clientPath("a/./b", below: MediaPath("/music")) == nil)
        #expect(FileContainment.clientPath("a/b..c/..d", below: MediaPath("/music")) == MediaPath("/music/a/b..c/..d"))
        #expect(FileContainment.clientPath("", below: MediaPath("/music")) == MediaPath("/music"))
    }

    @Test func coversAreLookedUpByTheSameRule() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let covers = CoverLookup()
        let roots = [MediaPath(root.path)]
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("a/cover.jpg").path,
                                                   withDestinationPath: outside.appendingPathComponent("secret").path)
        #expect(covers.folderCover(in: path("a"), roots: roots) == nil, "a cover.jpg linked out of the roots")
        #expect(!covers.hasFolderCover(in: path("a"), roots: roots), "nor told of")
        try Data("png".utf8).write(to: root.appendingPathComponent("a/Folder.png"))
        let found = try #require(covers.folderCover(in: path("a"), roots: roots))
        #expect(found.bytes == Array("png".utf8) && found.mimeType == "image/png")
        #expect(covers.folderCover(in: path("a"), roots: roots) == found, "from the cache")
    }

    /// Whether a folder has a cover is answered without reading it (a TV's first walk asks it of every album).
    @Test func aCoverIsToldOfWithoutBeingRead() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        try Data(repeating: 0xFF, count: 1 << 20).write(to: root.appendingPathComponent("a/cover.jpg"))
        let before = try bytesReadByThisThread()
        #expect(CoverLookup().hasFolderCover(in: path("a"), roots: [MediaPath(root.path)]))
        #expect(try bytesReadByThisThread() - before < 64 << 10)
        #expect(CoverLookup().folderCover(in: path("a"), roots: [MediaPath(root.path)])?.bytes.count == 1 << 20)
        #expect(try bytesReadByThisThread() - before >= 1 << 20, "the measure sees a read")
    }

    /// The folder is listed once and the names it has are tried in `CoverLookup.names`' order: the earliest
    /// present wins, a spelling not among the names is no cover, other names (not UTF-8 either) change nothing.
    @Test func theFirstCoverNameAFolderHasWins() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let roots = [MediaPath(root.path)]
        let folder = root.appendingPathComponent("a")
        try Data("shout".utf8).write(to: folder.appendingPathComponent("COVER.JPG"))
        try MediaPath(folder.path).appending(MediaPath(bytes: [0x63, 0xFF, 0x2E, 0x6A, 0x70, 0x67])).withCString { path in
            let fd = open(path, O_CREAT | O_WRONLY, 0o644)
            #expect(fd >= 0)
            close(fd)
        }
        #expect(CoverLookup().folderCover(in: path("a"), roots: roots) == nil, "COVER.JPG is not one of the names")
        #expect(!CoverLookup().hasFolderCover(in: path("a"), roots: roots))
        try Data("front".utf8).write(to: folder.appendingPathComponent("front.jpg"))
        try Data("Cover".utf8).write(to: folder.appendingPathComponent("Cover.webp"))
        let found = try #require(CoverLookup().folderCover(in: path("a"), roots: roots))
        #expect(found.bytes == Array("Cover".utf8) && found.mimeType == "image/webp", "Cover.* comes before front.*")
        try Data().write(to: folder.appendingPathComponent("cover.jpg"))
        #expect(CoverLookup().folderCover(in: path("a"), roots: roots)?.bytes == Array("Cover".utf8), "an empty cover.jpg is passed over")
        #expect(CoverLookup().hasFolderCover(in: path("a"), roots: roots))
        #expect(CoverLookup(maximumSize: 4).hasFolderCover(in: path("a"), roots: roots) == false, "past the size cap: none sent, none told")
        #expect(CoverLookup().folderCover(in: path("nowhere"), roots: roots) == nil)
        #expect(MediaPath(folder.path).entryNames()?.count == 7)   // song.flac, inner and the five above
        // A folder of more names than are listed has every cover name tried instead: the same answer.
        for i in 0..<CoverLookup.listedEntries { try Data().write(to: folder.appendingPathComponent("\(i).flac")) }
        #expect(MediaPath(folder.path).entryNames(limit: CoverLookup.listedEntries) == nil)
        #expect(CoverLookup().folderCover(in: path("a"), roots: roots)?.bytes == Array("Cover".utf8))
    }
}
