import Foundation
@testable import MediaIndex
@testable import PostgresStore
import Library
import MediaModel
import PostgresTestServer
import Testing
import TestSupport

/// Issue 38, shared roots: one NAS share mounted on several hosts of a PostgreSQL library is one set of
/// items. Hosts are distinct identities in one process (and, for the scan lock, `mlib` child processes with
/// homes of their own), on a real PostgreSQL server; the share is one directory of real files, mounted at
/// the same path on every host.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct SharedRootTests {
    static func library() throws -> String { try #require(PostgresTestServer.shared).makeDatabase("share") }

    static func open(_ locator: String, _ id: String) throws -> (index: PostgresIndex, library: Library) {
        let index = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: id + "-id", name: id))
        return (index, Library(store: index))
    }

    /// A directory standing for the share's mount point, with three real files in two folders.
    static func share() throws -> MediaPath {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-share-\(UUID().uuidString)/nas")
        for (fixture, place) in [("mp3-id3v24.mp3", "a/one.mp3"), ("flac-vorbis-cover.flac", "a/two.flac"), ("ogg-vorbis.ogg", "b/three.ogg")] {
            let target = directory.appendingPathComponent(place)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: ChildProcess.repo.appendingPathComponent("Fixtures/\(fixture)"), to: target)
        }
        return MediaPath(directory.path)
    }

    /// Item ids by path (two items of one path, a share indexed twice, are a failure, not a crash).
    static func ids(_ index: PostgresIndex) throws -> [String: Int64] {
        let items = try index.items(MediaQuery())
        #expect(Set(items.map(\.path)).count == items.count, "one item per path")
        return Dictionary(items.map { ($0.path.string, $0.persistentID) }, uniquingKeysWith: min)
    }

    @Test func aShareMountedOnTwoHostsIsOneSetOfItemsWhicheverHostScans() async throws {
        let locator = try Self.library()
        let nas = try Self.share()
        let (alpha, alphaLibrary) = try Self.open(locator, "alpha")
        let (beta, betaLibrary) = try Self.open(locator, "beta")
        #expect(try alphaLibrary.joinShare("music-nas", at: nas) == .joined)
        #expect(try await alphaLibrary.scan().summary.added == 3)
        #expect(try betaLibrary.joinShare("music-nas", at: nas) == .joined)
        #expect(try betaLibrary.joinShare("music-nas", at: nas) == .already)
        let second = try await betaLibrary.scan().summary
        #expect(second.added == 0 && second.unchanged == 3, "beta finds alpha's items: \(second)")
        #expect(try beta.count(MediaQuery()) == 3, "one set of items, not one per host")
        #expect(try alpha.roots() == [nas] && beta.roots() == [nas])

        // User data given on beta is on the one item alpha sees.
        let before = try Self.ids(alpha)
        let one = try #require(before[nas.string + "/a/one.mp3"])
        try beta.setRating(id: one, 4)
        try beta.recordPlay(id: one, at: Date(timeIntervalSince1970: 1_700_000_000))
        try beta.createPlaylist(name: "mix")
        try beta.appendToPlaylist(name: "mix", itemIDs: [one])
        #expect(try alpha.item(id: one)?[.rating]?.integer == 4 && alpha.item(id: one)?.playCount == 1)
        // tag/play/analyze act on a share's item through this host's mount point: not another host's file.
        try betaLibrary.requireThisHost(try beta.items(MediaQuery()), doing: "play")
        try alphaLibrary.requireThisHost(try alpha.items(MediaQuery()), doing: "play")

        // A move inside the share keeps the id, whichever host scans.
        try FileManager.default.moveItem(atPath: nas.string + "/a/one.mp3", toPath: nas.string + "/b/one.mp3")
        let moved = try await betaLibrary.scan().summary
        #expect(moved.moved == 1 && moved.added == 0 && moved.removed == 0, "\(moved)")
        #expect(try Self.ids(alpha)[nas.string + "/b/one.mp3"] == one)
        #expect(try alpha.item(id: one)?[.rating]?.integer == 4 && alpha.playlistItems(name: "mix").map(\.persistentID) == [one])
        let again = try await alphaLibrary.scan().summary
        #expect(again.unchanged == 3 && again.added == 0 && again.moved == 0)

        // Servers list the share's items (mounted here), once each.
        betaLibrary.readThisHostOnly()
        #expect(try beta.count(MediaQuery()) == 3)
        betaLibrary.readThisHostOnly(false)

        // A host leaving the share keeps the items for the other; the last one to leave forgets them.
        try betaLibrary.forgetRoot(nas)
        #expect(try beta.roots().isEmpty && alpha.roots() == [nas])
        #expect(try alpha.count(MediaQuery()) == 3 && alpha.item(id: one)?[.rating]?.integer == 4)
        #expect(try await alphaLibrary.scan().summary.unchanged == 3)
        try alphaLibrary.forgetRoot(nas)
        #expect(try alpha.count(MediaQuery()) == 0)
    }

    @Test func aHostWhereTheShareIsNotMountedRemovesNothingAndItsServerListsNothingOfIt() async throws {
        let locator = try Self.library()
        let nas = try Self.share()
        let (alpha, alphaLibrary) = try Self.open(locator, "alpha")
        let (gamma, gammaLibrary) = try Self.open(locator, "gamma")
        try alphaLibrary.joinShare("music-nas", at: nas)
        _ = try await alphaLibrary.scan()
        let one = try #require(try Self.ids(alpha)[nas.string + "/a/one.mp3"])
        try alpha.setRating(id: one, 5)
        try gammaLibrary.joinShare("music-nas", at: nas)
        // Not mounted on gamma: the mount point is there, empty (its files set aside while gamma looks).
        let aside = nas.string + ".aside"
        try FileManager.default.moveItem(atPath: nas.string, toPath: aside)
        try FileManager.default.createDirectory(atPath: nas.string, withIntermediateDirectories: false)
        let unmounted = try await gammaLibrary.scan().summary
        #expect(unmounted.removed == 0 && !unmounted.missingRoots.isEmpty, "\(unmounted)")
        gammaLibrary.readThisHostOnly()
        #expect(try gamma.count(MediaQuery()) == 0, "gamma's servers do not list what gamma cannot reach")
        gammaLibrary.readThisHostOnly(false)
        try FileManager.default.removeItem(atPath: nas.string)
        try FileManager.default.moveItem(atPath: aside, toPath: nas.string)
        #expect(try alpha.count(MediaQuery()) == 3 && alpha.item(id: one)?[.rating]?.integer == 5)
        let mountedAgain = try await gammaLibrary.scan().summary
        #expect(mountedAgain.unchanged == 3 && mountedAgain.added == 0)
        #expect(try alpha.item(id: one)?[.rating]?.integer == 5)
    }

    /// The first host's own root becomes the share with its ids and user data; a host's own root at a share
    /// others made, a share at another path and `--share` on SQLite are refused with a message.
    @Test func anOwnRootBecomesTheShareAndDoubtfulJoinsAreRefused() async throws {
        let locator = try Self.library()
        let nas = try Self.share()
        let (alpha, alphaLibrary) = try Self.open(locator, "alpha")
        let (beta, betaLibrary) = try Self.open(locator, "beta")
        _ = try await alphaLibrary.scan([nas])
        let before = try Self.ids(alpha)
        let one = try #require(before[nas.string + "/a/one.mp3"])
        try alpha.setRating(id: one, 3)
        #expect(try alphaLibrary.joinShare("music-nas", at: nas) == .converted)
        #expect(try alpha.rootStates().isEmpty && alpha.roots() == [nas])
        try betaLibrary.joinShare("music-nas", at: nas)
        let scanned = try await betaLibrary.scan().summary
        #expect(scanned.unchanged == 3 && scanned.added == 0, "\(scanned)")
        #expect(try Self.ids(beta) == before && beta.item(id: one)?[.rating]?.integer == 3)

        // beta's own root at the path of another share: two sets of items for one set of files.
        let (_, gammaLibrary) = try Self.open(locator, "gamma")
        let elsewhere = try Self.share()
        _ = try await gammaLibrary.scan([elsewhere])
        try betaLibrary.joinShare("other-nas", at: elsewhere)
        func refusal(_ body: () throws -> Void) -> String { "\(#expect(throws: IndexError.self, performing: body).map { "\($0)" } ?? "")" }
        #expect(refusal { try gammaLibrary.joinShare("other-nas", at: elsewhere) }.contains("one file would be two items"))
        // A share may be mounted at another path on another host (SharedMountPointsTests follows one).
        #expect(try gammaLibrary.joinShare("music-nas", at: MediaPath("/mnt/elsewhere")) == .joined)
        #expect(refusal { try gammaLibrary.joinShare("no-slash/x", at: nas) }.contains("cannot name a share"))
    }

    /// SQLite: one host's library, `--share` refused with a message and nothing written.
    @Test func shareIsRefusedOnSQLite() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-share-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let home = directory.appendingPathComponent("home").path
        let library = directory.appendingPathComponent("library.sqlite").path
        let result = try ChildProcess.run(ChildProcess.mlib.path, ["root", "add", directory.path, "--share", "music-nas", "--library", library],
                                          environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"])
        #expect(result.status != 0 && result.stderr.contains("an SQLite library is one host's"), "\(result.stderr)")
    }

    /// Two hosts (`mlib` processes, each with its own home, id file and name) scanning the share at once
    /// take turns on its lock and leave one set of items.
    @Test func twoHostsScanningTheShareAtOnceLeaveOneSetOfItems() throws {
        let locator = try Self.library()
        let nas = try Self.share()
        let top = URL(fileURLWithPath: nas.string).deletingLastPathComponent()
        for i in 0..<40 {
            try FileManager.default.copyItem(atPath: ChildProcess.repo.appendingPathComponent("Fixtures/mp3-id3v23.mp3").path,
                                             toPath: nas.string + "/b/copy\(i).mp3")
        }
        func host(_ name: String) -> [String: String] {
            let home = top.appendingPathComponent("home-\(name)").path
            return ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "MLIB_HOST": name, "MLIB_HOST_ID": ""]
        }
        for name in ["alpha", "beta"] {
            let joined = try ChildProcess.run(ChildProcess.mlib.path, ["root", "add", nas.string, "--share", "music-nas", "--library", locator],
                                              environment: host(name))
            #expect(joined.status == 0 && joined.out.contains("joined the share music-nas"), "\(joined.stderr)")
        }
        let scans = try ["alpha", "beta"].map {
            try SpawnedProcess(ChildProcess.mlib.path, ["scan", "--quiet", "--jobs", "1", "--batch-size", "5", "--library", locator],
                               environment: host($0), stdout: .pipe, stderr: .pipe)
        }
        for scan in scans {
            let (_, err) = scan.readToEnd()
            #expect(scan.terminationStatus == 0, "\(String(decoding: err, as: UTF8.self))")
        }
        let (reader, _) = try Self.open(locator, "reader")
        #expect(try reader.count(MediaQuery()) == 43)
        let listed = try ChildProcess.run(ChildProcess.mlib.path, ["root", "list", "--library", locator], environment: host("beta"))
        #expect(listed.out.contains("(share music-nas: alpha, beta)"), "\(listed.out)")
        let left = try ChildProcess.run(ChildProcess.mlib.path, ["root", "forget", nas.string, "--library", locator], environment: host("beta"))
        #expect(left.status == 0 && left.out.contains("its items stay for the 1 other host"), "\(left.out) \(left.stderr)")
        #expect(try reader.count(MediaQuery()) == 43)
    }

    /// `ls --paths` and `--json` say whose file each listed item is when the listing holds several hosts'
    /// items (`host:path`, a "host" member), and print as before when it holds one host's.
    @Test func listingsOfSeveralHostsItemsNameTheHost() async throws {
        let locator = try Self.library()
        let nas = try Self.share()
        let (_, alphaLibrary) = try Self.open(locator, "alpha")
        let (_, betaLibrary) = try Self.open(locator, "beta")
        _ = try await alphaLibrary.scan([MediaPath(nas.string + "/a")])
        _ = try await betaLibrary.scan([MediaPath(nas.string + "/b")])
        let alpha = ["MLIB_HOST": "alpha", "MLIB_HOST_ID": "alpha-id", "HOME": nas.string + "/../home", "XDG_CONFIG_HOME": ""]
        func ls(_ arguments: [String]) throws -> String {
            let result = try ChildProcess.run(ChildProcess.mlib.path, ["ls"] + arguments + ["--library", locator], environment: alpha)
            #expect(result.status == 0, "\(result.stderr)")
            return result.out
        }
        let both = try ls(["--paths", "--sort", "path"])
        #expect(both == "alpha:\(nas.string)/a/one.mp3\nalpha:\(nas.string)/a/two.flac\nbeta:\(nas.string)/b/three.ogg\n", "\(both)")
        let one = try ls(["--paths", "--sort", "path", "host:alpha"])
        #expect(one == "\(nas.string)/a/one.mp3\n\(nas.string)/a/two.flac\n", "one host's items, as before: \(one)")
        let json = try ls(["--json", "--sort", "path"])
        #expect(json.contains("\"host\":\"beta\"") && json.contains("\"host\":\"alpha\""), "\(json)")
        #expect(!(try ls(["--json", "host:beta"])).contains("\"host\""))
    }

    /// An upgrade of a library made before shared roots ("pg v13"): every root, item id, rating, play and
    /// playlist entry is kept, and the root can then become a share with them.
    @Test func anUpgradeFromTheSchemaBeforeSharesKeepsEverything() async throws {
        let locator = try Self.library()
        let nas = try Self.share()
        let (old, oldLibrary) = try Self.open(locator, "alpha")
        _ = try await oldLibrary.scan([nas])
        let before = try Self.ids(old)
        let one = try #require(before[nas.string + "/a/one.mp3"])
        try old.setRating(id: one, 4)
        try old.recordPlay(id: one, at: Date(timeIntervalSince1970: 1_700_000_000))
        try old.createPlaylist(name: "mix")
        try old.appendToPlaylist(name: "mix", itemIDs: [one, one])
        // The library as an mlib before "pg v13" left it.
        try old.session.run { x in
            try x.execute("DROP TABLE shares")
            try x.execute("DELETE FROM mlib_migrations WHERE name = 'pg v13: shared roots'")
        }
        let (alpha, alphaLibrary) = try Self.open(locator, "alpha")
        let steps = try alpha.session.run { x in try x.rows("SELECT name FROM mlib_migrations").compactMap { $0.text(0) } }
        #expect(steps.contains("pg v13: shared roots"))
        #expect(try alpha.roots() == [nas] && Self.ids(alpha) == before)
        #expect(try alpha.item(id: one)?[.rating]?.integer == 4 && alpha.item(id: one)?.playCount == 1)
        #expect(try alpha.playlistItems(name: "mix").map(\.persistentID) == [one, one])
        #expect(try alphaLibrary.joinShare("music-nas", at: nas) == .converted)
        #expect(try Self.ids(alpha) == before && alpha.item(id: one)?[.rating]?.integer == 4)
        #expect(try alpha.playlistItems(name: "mix").map(\.persistentID) == [one, one])
        #expect(try await alphaLibrary.scan().summary.unchanged == 3)
    }

    /// `mlib serve` on a host that joined the share lists its items (once each, and `add` takes them); on
    /// a host where it is not mounted, none of them. Real servers, real mpc.
    @Test(.enabled(if: ChildProcess.exists("mpc"), "mpc is not installed"))
    func eachHostsServerListsTheShareOnlyWhereItIsMounted() async throws {
        let locator = try Self.library()
        let nas = try Self.share()
        let (_, alphaLibrary) = try Self.open(locator, "alpha")
        let (_, betaLibrary) = try Self.open(locator, "beta")
        let (_, gammaLibrary) = try Self.open(locator, "gamma")
        for library in [alphaLibrary, betaLibrary, gammaLibrary] { try library.joinShare("music-nas", at: nas) }
        _ = try await alphaLibrary.scan()
        let home = URL(fileURLWithPath: nas.string).deletingLastPathComponent().appendingPathComponent("home").path
        func serve(_ host: String) throws -> ServeChild {
            try ServeChild(mlib: ChildProcess.mlib, arguments: ["serve", "--library", locator, "--port", "0", "--sink", "null"],
                           environment: ["MLIB_HOST": host, "MLIB_HOST_ID": host + "-id", "HOME": home, "XDG_CONFIG_HOME": home + "/.config"])
        }
        let beta = try serve("beta")
        let listed = try ChildProcess.run("mpc", ["-p", "\(beta.port)", "listall"])
        let uris = listed.out.split(separator: "\n").map(String.init)
        #expect(uris.count == 3 && uris.contains { $0.hasSuffix("a/one.mp3") }, "\(listed.out) \(listed.stderr)")
        let added = try ChildProcess.run("mpc", ["-p", "\(beta.port)", "add", uris.first ?? ""])
        #expect(added.status == 0, "\(added.stderr)")
        beta.stop()
        // Not mounted on gamma: the mount point empty while its server starts.
        let aside = nas.string + ".aside"
        try FileManager.default.moveItem(atPath: nas.string, toPath: aside)
        try FileManager.default.createDirectory(atPath: nas.string, withIntermediateDirectories: false)
        defer {
            try? FileManager.default.removeItem(atPath: nas.string)
            try? FileManager.default.moveItem(atPath: aside, toPath: nas.string)
        }
        let gamma = try serve("gamma")
        let none = try ChildProcess.run("mpc", ["-p", "\(gamma.port)", "listall"])
        #expect(none.status == 0 && none.out.isEmpty, "\(none.out) \(none.stderr)")
        gamma.stop()
    }

    /// `mlib tag` and `mlib play` on another host that joined the share act on the share's item through
    /// that host's mount point: the file is written, the play counted, on the one item every host sees.
    @Test func tagAndPlayOnAnotherHostActOnTheSharesOneItem() async throws {
        let locator = try Self.library()
        let nas = try Self.share()
        let (alpha, alphaLibrary) = try Self.open(locator, "alpha")
        let (_, betaLibrary) = try Self.open(locator, "beta")
        try alphaLibrary.joinShare("music-nas", at: nas)
        try betaLibrary.joinShare("music-nas", at: nas)
        _ = try await alphaLibrary.scan()
        let two = try #require(try Self.ids(alpha)[nas.string + "/a/two.flac"])
        let home = URL(fileURLWithPath: nas.string).deletingLastPathComponent().appendingPathComponent("home").path
        let beta = ["MLIB_HOST": "beta", "MLIB_HOST_ID": "beta-id", "HOME": home, "XDG_CONFIG_HOME": home + "/.config"]
        let tag = try ChildProcess.run(ChildProcess.mlib.path, ["tag", "--yes", "--library", locator, "title:Fixture", "title=Written on beta"],
                                       environment: beta)
        #expect(tag.status == 0, "\(tag.stderr)")
        let play = try ChildProcess.run(ChildProcess.mlib.path, ["play", "--sink", "null:fast", "--record-plays", "--library", locator, "title:Written"],
                                        environment: beta)
        #expect(play.status == 0, "\(play.stderr)")
        let item = try #require(try alpha.item(id: two))
        #expect(item.title == "Written on beta" && item.playCount == 1 && item.path.string == nas.string + "/a/two.flac", "\(item.title ?? "") \(item.playCount) \(tag.out) \(tag.stderr) \(play.stderr)")
        #expect(try alpha.count(MediaQuery()) == 3)
    }

    /// A share's export is read from /proc/self/mountinfo when a host joins it; another host adding that
    /// export as a root of its own is told which share it is.
    @Test func aShareIsSuggestedByTheExportMountedThere() throws {
        let info = #"""
            36 25 0:45 / /mnt/nas rw,relatime shared:80 - nfs4 nas:/export/music rw,vers=4.2
            37 25 8:1 / /home rw - ext4 /dev/sda1 rw
            38 25 0:46 / /mnt/my\040share rw - cifs //nas/music rw
            """#
        #expect(SharedRoot.networkSource(of: MediaPath("/mnt/nas"), mountinfo: info) == "nfs4 nas:/export/music")
        #expect(SharedRoot.networkSource(of: MediaPath("/mnt/my share"), mountinfo: info) == "cifs //nas/music")
        #expect(SharedRoot.networkSource(of: MediaPath("/home"), mountinfo: info) == nil, "not a network file system")
        #expect(SharedRoot.networkSource(of: MediaPath("/mnt"), mountinfo: info) == nil, "not a mount point")
        let locator = try Self.library()
        let nas = try Self.share()
        let (_, alphaLibrary) = try Self.open(locator, "alpha")
        let (beta, _) = try Self.open(locator, "beta")
        try (alphaLibrary.store as? SQLStore)?.joinShare("music-nas", at: nas, source: "nfs4 nas:/export/music")
        #expect(try beta.share(mountedFrom: "nfs4 nas:/export/music") == "music-nas")
        #expect(try beta.share(mountedFrom: "nfs4 nas:/export/films") == nil)
    }
}
