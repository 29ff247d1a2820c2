import Foundation
@testable import MediaIndex
import MediaModel
@testable import MediaScanner
import Testing
import TestSupport

/// Roots from the command line: subtree rescans, nested roots, relocation, mirrored playlists, signals.
struct CLIRootTests {
    typealias CLI = CLIScanTests

    // 6. `mlib scan DIR` inside a root rescans that subtree; it adds no nested root.
    @Test func scanningADirectoryInsideARootRescansItWithoutAddingARoot() throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "Artist/Album/a.mp3")
        try box.put("c.ogg", at: "Other/c.ogg")
        #expect(try CLI.run(["scan", "--quiet", "--library", box.library, box.music.path]).status == 0)
        let album = box.music.path + "/Artist/Album"
        try box.put("b.flac", at: "Artist/Album/b.flac")
        try FileManager.default.removeItem(atPath: box.music.path + "/Other/c.ogg")   // outside the subtree: not seen yet

        let sub = try CLI.run(["scan", "--json", "--library", box.library, album])
        #expect(sub.status == 0, "\(sub.stderr)")
        let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(sub.stdout.utf8))
        #expect(summary.added == 1 && summary.unchanged == 1 && summary.removed == 0)
        #expect(try box.index().roots() == [box.root()])
        #expect(try box.index().count(MediaQuery()) == 3)

        // A nested root is added only when asked; forgetting it removes nothing the outer root covers.
        #expect(try CLI.run(["root", "add", "--library", box.library, album]).status == 0)
        #expect(try box.index().roots().count == 2)
        let forget = try CLI.run(["root", "forget", "--library", box.library, album])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(try box.index().roots() == [box.root()])
        #expect(try box.index().count(MediaQuery()) == 3)
        #expect(try CLI.run(["scan", "--quiet", "--library", box.library, "--forget", box.music.path + "/Artist"]).status == 2)
    }

    // 8. A library relocated (a renamed folder, a disk mounted elsewhere) keeps every item.
    @Test func aRelocatedRootKeepsIdentityAndUserData() throws {
        let box = try Sandbox()
        let song = try box.put("a.mp3", at: "x/a.mp3")
        try box.put("b.flac", at: "x/b.flac")
        #expect(try CLI.run(["scan", "--quiet", "--library", box.library, box.music.path]).status == 0)
        let index = try box.index()
        let id = try #require(try index.item(path: song)).persistentID
        try index.setRating(id: id, 5)
        try index.createPlaylist(name: "P")
        try index.appendToPlaylist(name: "P", itemIDs: [id])

        let moved = box.url.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: box.music, to: moved)
        #expect(try CLI.run(["scan", "--quiet", "--library", box.library]).status == 1)     // the root is missing
        let relocate = try CLI.run(["root", "move", "--library", box.library, box.music.path, moved.path])
        #expect(relocate.status == 0, "\(relocate.stderr)")
        let rescan = try CLI.run(["scan", "--json", "--library", box.library])
        #expect(rescan.status == 0, "\(rescan.stderr)")
        let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(rescan.stdout.utf8))
        #expect(summary.unchanged == 2 && summary.added == 0 && summary.removed == 0)
        let item = try #require(try index.item(path: MediaPath(moved.path + "/x/a.mp3")))
        #expect(item.persistentID == id && item[.rating]?.integer == 5)
        #expect(try index.playlistItems(name: "P").map(\.persistentID) == [id])
        #expect(try CLI.run(["root", "move", "--library", box.library, "/no/such/root", moved.path]).status == 2)
    }

    /// A root's stored exclude list hides a folder at the next scan and, emptied, brings its items back
    /// with their ids and ratings; `--dry-run` names the list as the reason.
    @Test func aRootsStoredExcludeListHidesAndReturnsItems() throws {
        let box = try Sandbox()
        let live = try box.put("a.mp3", at: "Live/a.mp3")
        try box.put("b.flac", at: "Studio/b.flac")
        #expect(try CLI.run(["scan", "--quiet", "--library", box.library, box.music.path]).status == 0)
        let index = try box.index()
        let id = try #require(try index.item(path: live)).persistentID
        try index.setRating(id: id, 4)

        let add = try CLI.run(["root", "exclude", "--library", box.library, box.music.path, "Live/"])
        #expect(add.status == 0 && add.stdout == "Live/\n", "\(add.stderr)")
        #expect(try CLI.run(["root", "list", "--library", box.library]).stdout.contains("(excludes: Live/)"))
        let dry = try CLI.run(["scan", "--dry-run", "--library", box.library])
        #expect(dry.stdout.contains("- \(box.music.path)/Live  excluded by Live/ (the root's exclude list)"), "\(dry.stdout)")
        #expect(try CLI.run(["scan", "--quiet", "--library", box.library]).status == 0)
        #expect(try index.item(path: live) == nil && (try index.count(MediaQuery())) == 1)

        #expect(try CLI.run(["root", "exclude", "--remove", "--library", box.library, box.music.path, "Live/"]).status == 0)
        #expect(try CLI.run(["scan", "--quiet", "--library", box.library]).status == 0)
        let back = try #require(try index.item(path: live))
        #expect(back.persistentID == id && back[.rating]?.integer == 4)
        #expect(try CLI.run(["root", "exclude", "--library", box.library, "/not/a/root", "x"]).status == 2)
    }

    // 9. A playlist mirrored from a file refuses edits (the next scan would undo them) and leaves with it.
    @Test func aMirroredPlaylistRefusesEditsAndGoesWithItsFile() throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "a.mp3")
        try box.put("b.flac", at: "b.flac")
        let m3u = box.music.appendingPathComponent("mix.m3u8")
        try Data("a.mp3\n".utf8).write(to: m3u)
        #expect(try CLI.run(["scan", "--quiet", "--library", box.library, box.music.path]).status == 0)
        let index = try box.index()
        let mirror = try #require(try index.playlist(named: "mix"))
        #expect(mirror.source == MediaPath(m3u.path))
        let other = try #require(try index.item(path: MediaPath(box.music.path + "/b.flac"))).persistentID
        #expect(throws: IndexError.self) { try index.appendToPlaylist(name: "mix", itemIDs: [other]) }
        #expect(try index.playlistItems(name: "mix").count == 1)
        let listed = try CLI.run(["playlist", "list", "--library", box.library])
        #expect(listed.stdout.contains("mix\t1 item  [mirrors \(m3u.path): edit the file]"), "\(listed.stdout)")
        let add = try CLI.run(["playlist", "add", "--library", box.library, "mix", "title:Bravo"])
        #expect(add.status != 0 && add.stderr.contains("mirrors"), "\(add.stderr)")

        try FileManager.default.removeItem(at: m3u)
        #expect(try CLI.run(["scan", "--quiet", "--library", box.library]).status == 0)
        #expect(try index.playlist(named: "mix") == nil)
    }

    // A server locator is never taken for a file name (it made a directory "postgres:" with a lock in it):
    // an unreachable server is one line and status 3.
    @Test func anUnreachablePostgresLocatorIsOneLineAndCreatesNothing() throws {
        let box = try Sandbox()
        let directory = FileManager.default.currentDirectoryPath
        for arguments in [["stats"], ["scan", box.music.path], ["root", "forget", "/x"], ["ls"]] {
            let run = try CLI.run(arguments + ["--library", "postgres://mlib@127.0.0.1:1/music"])
            #expect(run.status == 3 && run.stderr.contains("PostgreSQL"), "\(arguments): \(run.status) \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/postgres:"))
        let sqlite = try CLI.run(["scan", "--quiet", "--library", "sqlite:" + box.library, box.music.path])
        #expect(sqlite.status == 0 && FileManager.default.fileExists(atPath: box.library), "\(sqlite.stderr)")
    }

    // A signal that arrives while a scan finishes is obeyed: exit 130, never 0.
    @Test func aSignalDuringAScanAlwaysExits130() throws {
        let box = try Sandbox()
        // Rescans long enough to be caught while they run: 100 of 400 files read again each round (40 files
        // could all be rescanned before the first 30 ms pause was over).
        try CLI.bigTree(box, count: 400)
        #expect(try CLI.run(["scan", "--quiet", "--library", box.library, box.music.path]).status == 0)
        var caught = 0
        for round in 0..<12 {
            for i in stride(from: round % 4, to: 400, by: 4) {
                let template = ["a.mp3", "b.flac", "c.ogg", "d.mp3"][i % 4]
                let path = box.music.path + "/dir\(i / 10)/file\(i).\(template.split(separator: ".")[1])"
                utimensat(AT_FDCWD, path, nil, 0)                     // now: a changed mtime
            }
            let (child, _, err) = try CLI.start(["scan", "--quiet", "--library", box.library])
            // Past start-up (its SIGTERM handler installed: on a loaded machine 30 ms was not always enough,
            // and the signal then killed it by the default action), then somewhere in or after the scan.
            Poll.until(timeout: 20, interval: 0.001) { child.catches(SIGTERM) || !child.isRunning }
            usleep(useconds_t(10_000 + round * 10_000))
            guard kill(child.processIdentifier, SIGSTOP) == 0 else { child.waitUntilExit(); continue }
            // Frozen while still running (not a zombie that already exited): a SIGTERM now must make it exit 130.
            guard Self.processState(child.processIdentifier) == "T" else {
                kill(child.processIdentifier, SIGCONT)
                child.waitUntilExit()
                continue
            }
            kill(child.processIdentifier, SIGTERM)
            kill(child.processIdentifier, SIGCONT)
            child.waitUntilExit()
            #expect(child.terminationReason == .exit && child.terminationStatus == 130, "round \(round): \(child.terminationStatus) \(String(data: err.availableData, encoding: .utf8) ?? "")")
            caught += 1
        }
        #expect(try box.index().integrityCheck() == "ok")
        print("signalled \(caught) of 12 rescans while they ran")
        #expect(caught > 0)
    }

    /// The state letter of /proc/PID/stat ("T" stopped, "Z" exited, "R"/"S" running), once it settles.
    static func processState(_ pid: Int32) -> Character? {
        for _ in 0..<200 {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let state = stat[stat.index(close, offsetBy: 2)]
            if state == "T" || state == "Z" { return state }
            usleep(1_000)
        }
        return nil
    }
}
