import Foundation
import PostgresTestServer
import Testing
import TestSupport

/// Issue 38: one NAS share mounted at different paths on different hosts is one set of items. Two hosts
/// are two `mlib` child processes with homes, names and ids of their own, on one library of a real
/// PostgreSQL server; the export is two directories holding the same files (`cp -a`: same sizes and
/// modification times, other inodes, as two NFS clients' views of one export would have the same), host
/// alpha's mount point `…/alpha/mnt/nas` and host beta's `…/beta/media/music`.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct SharedMountPointsTests {
    struct Host {
        let name: String
        let home: String
        let locator: String
        var environment: [String: String] {
            ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "MLIB_HOST": name, "MLIB_HOST_ID": name + "-id"]
        }

        @discardableResult
        func mlib(_ arguments: [String], _ sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let result = try ChildProcess.run(ChildProcess.mlib.path, arguments + ["--library", locator], environment: environment)
            #expect(result.status == 0, "\(name): mlib \(arguments.joined(separator: " ")): \(result.stderr)", sourceLocation: sourceLocation)
            return result.out
        }

        /// The items this host lists: path → (id, rating).
        func items(_ query: [String] = []) throws -> [String: (id: Int64, rating: Int64?)] {
            var found: [String: (id: Int64, rating: Int64?)] = [:]
            for line in try mlib(["ls", "--jsonl"] + query).split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let path = try #require(object["path"] as? String)
                #expect(found[path] == nil, "\(name) lists \(path) twice")
                found[path] = ((object["persistentID"] as? NSNumber)?.int64Value ?? -1, (object["rating"] as? NSNumber)?.int64Value)
            }
            return found
        }
    }

    /// The export under `base`: `files` (fixture, place) at alpha's mount point, copied with `cp -a` to
    /// beta's; and the two hosts.
    static func export(at base: String, locator: String, _ files: [(fixture: String, place: String)]) throws
        -> (nasA: String, nasB: String, alpha: Host, beta: Host) {
        let nasA = base + "/alpha/mnt/nas", nasB = base + "/beta/media/music"
        for (fixture, place) in files {
            try FileManager.default.createDirectory(atPath: nasA + "/" + place.split(separator: "/")[0], withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: ChildProcess.repo.appendingPathComponent("Fixtures/\(fixture)").path, toPath: nasA + "/" + place)
        }
        try FileManager.default.createDirectory(atPath: base + "/beta/media", withIntermediateDirectories: true)
        let copied = try ChildProcess.run("cp", ["-a", nasA, nasB])
        try #require(copied.status == 0, "\(copied.stderr)")
        return (nasA, nasB, Host(name: "alpha", home: base + "/alpha/home", locator: locator),
                Host(name: "beta", home: base + "/beta/home", locator: locator))
    }

    @Test func aShareMountedAtTwoPathsIsOneSetOfItemsEachHostAtItsOwnPaths() async throws {
        let locator = try #require(PostgresTestServer.shared).makeDatabase("mounts")
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-mounts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let (nasA, nasB, alpha, beta) = try Self.export(at: base, locator: locator,
                                                        [("mp3-id3v24.mp3", "a/one.mp3"), ("flac-vorbis-cover.flac", "a/two.flac"), ("ogg-vorbis.ogg", "b/three.ogg")])

        try alpha.mlib(["root", "add", nasA, "--share", "nas"])
        try alpha.mlib(["scan", "--quiet"])
        try alpha.mlib(["rate", "path:\(nasA)/a/one.mp3", "4"])
        let onAlpha = try alpha.items()
        #expect(Set(onAlpha.keys) == [nasA + "/a/one.mp3", nasA + "/a/two.flac", nasA + "/b/three.ogg"])
        let one = try #require(onAlpha[nasA + "/a/one.mp3"]?.id)

        // beta joins the share at its own mount point: nothing new, the same ids, alpha's rating, beta's paths.
        try beta.mlib(["root", "add", nasB, "--share", "nas"])
        #expect(try beta.mlib(["root", "list"]).contains(nasB))
        try beta.mlib(["scan", "--quiet"])
        let onBeta = try beta.items()
        #expect(Set(onBeta.keys) == [nasB + "/a/one.mp3", nasB + "/a/two.flac", nasB + "/b/three.ogg"], "\(onBeta.keys.sorted())")
        #expect(onBeta[nasB + "/a/one.mp3"]?.id == one && onBeta[nasB + "/a/one.mp3"]?.rating == 4)
        #expect(Set(onBeta.values.map(\.id)) == Set(onAlpha.values.map(\.id)), "one set of items")
        let afterBeta = try alpha.items()
        #expect(afterBeta.count == 3, "beta's scan added nothing: \(afterBeta.keys.sorted())")
        #expect(try beta.mlib(["ls", "--paths", "--sort", "path"]) == "\(nasB)/a/one.mp3\n\(nasB)/a/two.flac\n\(nasB)/b/three.ogg\n")
        // A user's path on beta is beta's path.
        #expect(try beta.mlib(["ls", "--paths", "--sort", "path", "path:\(nasB)/a/"]) == "\(nasB)/a/one.mp3\n\(nasB)/a/two.flac\n")
        #expect(try beta.mlib(["ls", "--paths", "path:\(nasA)/"]).isEmpty, "alpha's mount point is not beta's")
        try beta.mlib(["rate", "path:\(nasB)/b/three.ogg", "2"])
        #expect(try alpha.items()[nasA + "/b/three.ogg"]?.rating == 2)
        // beta plays and tags the share's item through its own mount point (alpha's path does not exist on beta).
        try beta.mlib(["play", "--sink", "null:fast", "--record-plays", "path:\(nasB)/b/three.ogg"])
        #expect(try alpha.mlib(["ls", "-f", "$playCount", "path:\(nasA)/b/three.ogg"]) == "1\n")
        try beta.mlib(["tag", "--yes", "path:\(nasB)/a/two.flac", "title=Written on beta"])
        let written = try ChildProcess.run(ChildProcess.mlib.path, ["info", "--show", "title", nasB + "/a/two.flac"])
        #expect(written.out.contains("title=Written on beta"), "\(written.out)")
        #expect(try beta.mlib(["ls", "-f", "$title", "path:\(nasB)/a/two.flac"]) == "Written on beta\n")

        // A move inside the share (on the export: both views of it) found by beta's scan keeps the id.
        for nas in [nasA, nasB] { try FileManager.default.moveItem(atPath: nas + "/a/one.mp3", toPath: nas + "/b/one.mp3") }
        try beta.mlib(["scan", "--quiet"])
        let moved = try beta.items()
        #expect(moved.count == 3 && moved[nasB + "/b/one.mp3"]?.id == one && moved[nasB + "/b/one.mp3"]?.rating == 4, "\(moved.keys.sorted())")
        let movedOnAlpha = try alpha.items()
        #expect(movedOnAlpha.count == 3 && movedOnAlpha[nasA + "/b/one.mp3"]?.id == one, "\(movedOnAlpha.keys.sorted())")
        try alpha.mlib(["scan", "--quiet"])
        #expect(try alpha.items()[nasA + "/b/one.mp3"]?.id == one)

        // beta leaves: alpha keeps the items and their ratings.
        try beta.mlib(["root", "forget", nasB])
        let kept = try alpha.items()
        #expect(kept.count == 3 && kept[nasA + "/b/one.mp3"]?.rating == 4 && kept[nasA + "/b/three.ogg"]?.rating == 2)
    }

    /// beta's server lists the share at beta's paths, and follows the share being unmounted and mounted
    /// while it runs (the mount point emptied and filled again: a directory set aside), deleting nothing.
    @Test(.enabled(if: ChildProcess.exists("mpc"), "mpc is not installed"))
    func aServerListsTheShareAtItsOwnPathsAndFollowsItsMounting() async throws {
        let locator = try #require(PostgresTestServer.shared).makeDatabase("mounts")
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-mounts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let (nasA, nasB, alpha, beta) = try Self.export(at: base, locator: locator,
                                                        [("mp3-id3v24.mp3", "a/one.mp3"), ("ogg-vorbis.ogg", "b/three.ogg")])
        try alpha.mlib(["root", "add", nasA, "--share", "nas"])
        try alpha.mlib(["scan", "--quiet"])
        try beta.mlib(["root", "add", nasB, "--share", "nas"])

        // Not mounted on beta when its server starts: the mount point is there, empty.
        let aside = base + "/beta/aside"
        try FileManager.default.moveItem(atPath: nasB, toPath: aside)
        try FileManager.default.createDirectory(atPath: nasB, withIntermediateDirectories: false)
        let server = try ServeChild(mlib: ChildProcess.mlib, arguments: ["serve", "--library", locator, "--port", "0", "--sink", "null"],
                                    environment: beta.environment)
        defer { _ = server.stop() }
        func listed() throws -> [String] {
            try ChildProcess.run("mpc", ["-p", "\(server.port)", "listall"]).out.split(separator: "\n").map(String.init).sorted()
        }
        /// The listing once it is `expected`, or the last one after 20 s (the view's fallback look is every 5 s).
        func listing(_ expected: [String]) async throws -> [String] {
            var last = try listed()
            for _ in 0..<80 where last != expected {
                try await Task.sleep(for: .milliseconds(250))
                last = try listed()
            }
            return last
        }
        #expect(try listed().isEmpty, "not mounted: nothing listed")

        // Mounted while the server runs: listed, by URIs under beta's mount point; the files are beta's.
        try FileManager.default.removeItem(atPath: nasB)
        try FileManager.default.moveItem(atPath: aside, toPath: nasB)
        #expect(try await listing(["a/one.mp3", "b/three.ogg"]) == ["a/one.mp3", "b/three.ogg"])
        let added = try ChildProcess.run("mpc", ["-p", "\(server.port)", "add", "a/one.mp3"])
        #expect(added.status == 0, "\(added.stderr)")
        let queued = try ChildProcess.run("mpc", ["-p", "\(server.port)", "-f", "%file%", "playlist"])
        #expect(queued.out == "a/one.mp3\n", "\(queued.out) \(queued.stderr)")

        // Unmounted again: gone from the listing, nothing deleted.
        try FileManager.default.moveItem(atPath: nasB, toPath: aside)
        try FileManager.default.createDirectory(atPath: nasB, withIntermediateDirectories: false)
        #expect(try await listing([]) == [])
        #expect(try alpha.items().count == 2)
    }

    /// `export --format json` says whose file each item is when they are several hosts' (a "host" member
    /// after "path", as `ls --json`), and writes one host's items as before.
    @Test func anExportOfSeveralHostsItemsNamesTheHost() throws {
        let locator = try #require(PostgresTestServer.shared).makeDatabase("mounts")
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-mounts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let alpha = Host(name: "alpha", home: base + "/alpha/home", locator: locator)
        let beta = Host(name: "beta", home: base + "/beta/home", locator: locator)
        for (host, fixture) in [(alpha, "mp3-id3v24.mp3"), (beta, "ogg-vorbis.ogg")] {
            let music = base + "/" + host.name + "/music"
            try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: ChildProcess.repo.appendingPathComponent("Fixtures/\(fixture)").path, toPath: music + "/" + fixture)
            try host.mlib(["scan", "--quiet", music])
        }
        let both = try alpha.mlib(["export", "--format", "json", "--sort", "path"])
        let hosts = try #require(try JSONSerialization.jsonObject(with: Data(both.utf8)) as? [[String: Any]]).map { $0["host"] as? String }
        #expect(hosts == ["alpha", "beta"], "\(both)")
        #expect(both.contains(#""path":"\#(base)/alpha/music/mp3-id3v24.mp3","host":"alpha""#), "\(both)")
        let one = try alpha.mlib(["export", "--format", "json", "host:beta"])
        let listed = try beta.mlib(["ls", "--json", "host:beta"])
        #expect(!one.contains(#""host""#) && one == listed, "one host's items as before: \(one)")
        #expect(!(try alpha.mlib(["export", "--format", "m3u8"])).contains("beta:"), "other formats unchanged")
    }
}
