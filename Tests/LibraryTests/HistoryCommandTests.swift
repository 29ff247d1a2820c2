import Foundation
import PostgresTestServer
import Testing
import TestSupport

/// `mlib history` (issue 40) over what `mlib play --record-plays` recorded, on both stores: newest first,
/// `--limit`, `--since`, `--kind`, `--json`, `--export` (ListenBrainz listens), and an item removed by a
/// rescan keeps its history.
struct HistoryCommandTests {
    struct Box {
        let folder: TemporaryLibrary
        let locator: String

        init(_ store: Store) throws {
            folder = try TemporaryLibrary("history", copying: ["opus.opus", "mp3-notags.mp3"])
            locator = try store.newLocator(sqlitePath: folder.library)
            try run(["scan", "-q", folder.music.path])
        }

        @discardableResult
        func run(_ arguments: [String]) throws -> ChildProcess.Output {
            let result = try ChildProcess.run(ChildProcess.mlib.path, arguments + ["--library", locator])
            guard result.status == 0 else { throw TestFailure("mlib \(arguments.joined(separator: " ")): \(result.status) \(result.stderr)") }
            return result
        }

        func json(_ arguments: [String]) throws -> [[String: Any]] {
            try #require(try JSONSerialization.jsonObject(with: run(arguments).stdout) as? [[String: Any]])
        }
    }

    @Test(arguments: Store.available) func playsAreListedNewestFirst(_ store: Store) throws {
        let box = try Box(store)
        defer { box.folder.remove() }
        #expect(try box.run(["history"]).out == "", "no history before any play")
        try box.run(["play", "--sink", "null:fast", "--record-plays", "--sort", "title", "title:Opus"])
        try box.run(["play", "--sink", "null:fast", "--record-plays", "--files", box.folder.music.appendingPathComponent("mp3-notags.mp3").path])

        let rows = try box.json(["history", "--json"])
        #expect(rows.count == 2)
        #expect(rows.map { $0["title"] as? String ?? "-" } == ["-", "Opus Song"], "newest first (the untagged file has no title)")
        #expect(rows.allSatisfy { $0["front"] as? String == "play" && $0["user"] is NSNull && $0["kind"] as? String == "play" })
        #expect(rows.allSatisfy { Set($0.keys) == ["itemID", "kind", "when", "heard", "front", "user", "title", "artist", "album", "path"] })
        #expect((rows.last?["path"] as? String)?.hasSuffix("/opus.opus") == true)
        #expect(rows.last?["artist"] as? String == "The Fixtures" && rows.last?["album"] as? String == "Test Pressing")
        #expect((rows.last?["when"] as? String)?.hasSuffix("Z") == true)

        let text = try box.run(["history"]).out.split(separator: "\n")
        #expect(text.count == 2 && text[1].hasSuffix("  play  play  -  The Fixtures – Opus Song"), "\(text)")
        #expect(try box.json(["history", "--json", "--limit", "1"]).count == 1)
        #expect(try box.json(["history", "--json", "--since", "1h"]).count == 2)
        #expect(try box.json(["history", "--json", "--since", "2999-01-01"]).isEmpty)
        #expect(try box.json(["history", "--json", "--kind", "skip"]).isEmpty)

        // ListenBrainz listens: only the tagged play can be one; the other is counted on standard error.
        let export = try box.run(["history", "--export"])
        let lines = export.out.split(separator: "\n")
        #expect(lines.count == 1)
        let listen = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let metadata = try #require(listen["track_metadata"] as? [String: Any])
        #expect(listen["listened_at"] is NSNumber)
        #expect(metadata["artist_name"] as? String == "The Fixtures" && metadata["track_name"] as? String == "Opus Song")
        #expect(metadata["release_name"] as? String == "Test Pressing")
        #expect((metadata["additional_info"] as? [String: Any])?["submission_client"] as? String == "mlib")
        #expect(export.stderr.contains("1 play left out"))
    }

    /// A removed item keeps its history (ids are never reused): listed as removed, with its id.
    @Test(arguments: Store.available) func aRemovedItemKeepsItsHistory(_ store: Store) throws {
        let box = try Box(store)
        defer { box.folder.remove() }
        try box.run(["play", "--sink", "null:fast", "--record-plays", "title:Opus"])
        let id = try #require(try box.json(["history", "--json"]).first?["itemID"] as? NSNumber)
        try FileManager.default.removeItem(at: box.folder.music.appendingPathComponent("opus.opus"))
        try box.run(["scan", "-q", box.folder.music.path])
        #expect(try box.run(["ls", "--count", "title:Opus"]).out == "0\n")
        let rows = try box.json(["history", "--json"])
        #expect(rows.count == 1 && rows.first?["itemID"] as? NSNumber == id && rows.first?["title"] is NSNull)
        #expect(try box.run(["history"]).out.hasSuffix("(removed item \(id))\n"))
    }

    /// `plays(…)`/`skips(…)` in `mlib ls` and in a smart playlist, read from the history on each store.
    @Test(arguments: Store.available) func historyTermsWorkInQueriesAndSmartPlaylists(_ store: Store) throws {
        let box = try Box(store)
        defer { box.folder.remove() }
        try box.run(["play", "--sink", "null:fast", "--record-plays", "title:Opus"])
        #expect(try box.run(["ls", "--count", "plays(1) >= 1"]).out == "1\n")
        #expect(try box.run(["ls", "-f", "$title", "plays(1) >= 1"]).out == "Opus Song\n")
        #expect(try box.run(["ls", "--count", "plays() == 0"]).out == "1\n", "the untagged file, never played")
        #expect(try box.run(["ls", "--count", #"skips("1w") > 0"#]).out == "0\n")
        try box.run(["playlist", "smart", "On repeat", "plays(30) >= 1"])
        let shown = try box.json(["playlist", "show", "On repeat", "--json"])
        #expect(shown.count == 1 && shown.first?["title"] as? String == "Opus Song", "\(shown)")
        let bad = try ChildProcess.run(ChildProcess.mlib.path, ["ls", "plays(30) CONTAINS 1", "--library", box.locator])
        #expect(bad.status == 2, "\(bad.stderr)")
    }

    @Test func badOptionsAreUsageErrors() throws {
        for arguments in [["--since", "yesterday"], ["--limit", "-1"], ["--kind", "pause"], ["--json", "--export"]] {
            let r = try ChildProcess.run(ChildProcess.mlib.path, ["history"] + arguments + ["--library", "/nonexistent/library.sqlite"])
            #expect(r.status == 2, "\(arguments): \(r.status) \(r.stderr)")
        }
    }
}
