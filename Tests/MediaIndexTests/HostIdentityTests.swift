import Foundation
@testable import MediaIndex
@testable import PostgresStore
import Library
import MediaModel
import PostgresTestServer
import Testing

/// Issue 38: a host of a shared PostgreSQL library is an id kept on the machine, its name a label. Each test
/// simulates hosts by distinct identities in one process, on a real PostgreSQL server.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct HostIdentityTests {
    static func library() throws -> String { try #require(PostgresTestServer.shared).makeDatabase() }

    static func open(_ locator: String, _ identity: HostIdentity) throws -> PostgresIndex {
        try PostgresIndex(try PostgresLocation(url: locator), identity: identity)
    }

    /// One item under /music, rated and played, as host `index`.
    static func seed(_ index: PostgresIndex) throws -> Int64 {
        try index.addRoot(MediaPath("/music"))
        try index.apply([.add(sampleItem("/music/a.mp3", title: "Jóga"), stamp(1000), fingerprint: 7)], generation: 1)
        let id = try #require(try index.item(path: MediaPath("/music/a.mp3"))?.persistentID)
        try index.setRating(id: id, 4)
        try index.recordPlay(id: id, at: Date(timeIntervalSince1970: 1_700_000_000))
        return id
    }

    @Test func aRenamedHostKeepsItsRoots() throws {
        let locator = try Self.library()
        let before = try Self.open(locator, HostIdentity(id: "h-1", name: "den"))
        let id = try Self.seed(before)
        let after = try Self.open(locator, HostIdentity(id: "h-1", name: "study"))
        #expect(try after.roots() == [MediaPath("/music")])
        #expect(try after.itemCount(under: MediaPath("/music")) == 1)
        #expect(try after.item(path: MediaPath("/music/a.mp3"))?.persistentID == id)
        let names = try after.session.run { x in try x.rows("SELECT name FROM hosts").compactMap { $0.text(0) } }
        #expect(names == ["study"], "the label follows the name; the host stays one")
    }

    /// Rows an mlib before host ids wrote under a host's name are the rows of that host's id once it opens
    /// the library: the item keeps its id, rating and plays, the root, failure, mount and playlist follow.
    @Test func rowsNamedByAHostNameAreAdoptedByThatHost() throws {
        let locator = try Self.library()
        let writer = try Self.open(locator, HostIdentity(id: "h-writer", name: "writer"))
        let id = try Self.seed(writer)
        try writer.apply([.fail(MediaPath("/music/x.mp3"), stamp(5), code: "unreadable", message: "no")], generation: 1)
        // As an earlier mlib left them: the host's name in every host column, and no host recorded.
        try writer.session.run { x in
            for table in ["roots", "items", "failures", "mounts"] { try x.execute("UPDATE \(raw: table) SET host = 'den'") }
            try x.execute("DELETE FROM hosts")
        }
        let den = try Self.open(locator, HostIdentity(id: "h-den", name: "den", nameGiven: false))
        #expect(try den.roots() == [MediaPath("/music")])
        let item = try #require(try den.item(path: MediaPath("/music/a.mp3")))
        #expect(item.persistentID == id && item[.rating]?.integer == 4 && item.playCount == 1)
        #expect(try den.itemCount(under: MediaPath("/music")) == 1, "this host's item, by its id")
        let hosts = try den.session.run { x in
            try x.rows("SELECT DISTINCT host FROM items UNION SELECT DISTINCT host FROM roots UNION SELECT DISTINCT host FROM failures")
                .compactMap { $0.text(0) }
        }
        #expect(hosts == ["h-den"])
        // Another host of that name, later, finds nothing left to adopt and cannot take the root.
        let twin = try Self.open(locator, HostIdentity(id: "h-twin", name: "den", nameGiven: false))
        #expect(try twin.roots().isEmpty)
        #expect(try den.itemCount(under: MediaPath("/music")) == 1)
    }

    @Test func twoHostsOfOneNameCannotShareARootPath() throws {
        let locator = try Self.library()
        let first = try Self.open(locator, HostIdentity(id: "pi-1", name: "raspberrypi", nameGiven: false))
        _ = try Self.seed(first)
        let second = try Self.open(locator, HostIdentity(id: "pi-2", name: "raspberrypi", nameGiven: false))
        let error = #expect(throws: IndexError.self) { try second.addRoot(MediaPath("/music")) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("another host named 'raspberrypi'"))
        #expect(try second.addRoot(MediaPath("/other")), "another path is no clash")
        #expect(try first.itemCount(under: MediaPath("/music")) == 1, "the first host's item is untouched")
        // A host of another name may have the same path: its own files there.
        let den = try Self.open(locator, HostIdentity(id: "den-1", name: "den"))
        #expect(try den.addRoot(MediaPath("/music")))
    }

    @Test func anIdFileCopiedToAnotherMachineIsRefused() throws {
        let locator = try Self.library()
        _ = try Self.open(locator, HostIdentity(id: "h-1", name: "alpha", machine: "machine-a", idGiven: false, nameGiven: false))
        let copy = HostIdentity(id: "h-1", name: "beta", machine: "machine-b", idGiven: false, nameGiven: false)
        let error = #expect(throws: IndexError.self) { try Self.open(locator, copy) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("already host 'alpha' on another machine"))
        // Given on purpose (MLIB_HOST_ID), the host moves to this machine; the first machine is refused then.
        var moved = copy
        moved.idGiven = true
        _ = try Self.open(locator, moved)
        #expect(throws: IndexError.self) {
            try Self.open(locator, HostIdentity(id: "h-1", name: "alpha", machine: "machine-a", idGiven: false, nameGiven: false))
        }
    }

    @Test func mlibHostCannotNameAnotherHost() throws {
        let locator = try Self.library()
        let beta = try Self.open(locator, HostIdentity(id: "beta-id", name: "beta", nameGiven: false))
        _ = try Self.seed(beta)
        let error = #expect(throws: IndexError.self) { try Self.open(locator, HostIdentity(id: "alpha-id", name: "beta", nameGiven: true)) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("MLIB_HOST=beta is the name of another host"))
        // Acting as beta takes its id, said on purpose.
        let actingAsBeta = try Self.open(locator, HostIdentity(id: "beta-id", name: "beta"))
        #expect(try actingAsBeta.roots() == [MediaPath("/music")])
    }

    @Test func theIdIsMadeOnceAndKeptInTheConfigDirectory() throws {
        let home = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["HOME": home.path]
        let first = try HostIdentity.current(environment: env, database: "music")
        #expect(!first.idGiven && UUID(uuidString: first.id) != nil)
        #expect(try HostIdentity.current(environment: env, database: "music").id == first.id)
        let file = home.path + "/.config/mlib/host-id"
        #expect(try String(contentsOfFile: file, encoding: .utf8) == first.id + "\n")
        #expect(try HostIdentity.current(environment: ["HOME": try temporaryDirectory().path], database: "music").id != first.id)
        let given = try HostIdentity.current(environment: env.merging(["MLIB_HOST_ID": "x-1", "MLIB_HOST": "nas"]) { $1 }, database: "music")
        #expect(given.id == "x-1" && given.idGiven && given.name == "nas" && given.nameGiven)
    }

    /// What a server reads (`mlib serve`: `Library.readThisHostOnly`): this host's items only, so that it never
    /// lists a song it cannot play (B's Subsonic sync returned 5,008 songs of other hosts, each `stream`
    /// error 70) nor two songs under one path (MPD `lsinfo` showed A's tags on B's file).
    @Test func aServerReadsOnlyThisHostsItems() throws {
        let locator = try Self.library()
        let alpha = try Self.open(locator, HostIdentity(id: "alpha-id", name: "alpha"))
        let alphaItem = try Self.seed(alpha)
        let beta = try Self.open(locator, HostIdentity(id: "beta-id", name: "beta"))
        try beta.addRoot(MediaPath("/music"))
        try beta.apply([.add(sampleItem("/music/a.mp3", title: "Beta's Jóga"), stamp(1000), fingerprint: 7),
                        .add(sampleItem("/music/b.mp3", title: "Hunter"), stamp(2000), fingerprint: 8)], generation: 1)
        let library = Library(store: beta)
        #expect(try beta.count(MediaQuery()) == 3, "the CLI lists the whole library")
        library.readThisHostOnly()
        #expect(try beta.count(MediaQuery()) == 2)
        #expect(try beta.item(id: alphaItem) == nil)
        #expect(try beta.item(path: MediaPath("/music/a.mp3"))?.title == "Beta's Jóga")
        let view = try LiveView(store: beta, schema: ViewSchema(slots: [.init("Title", multiValued: false) { $0.title }], properties: []))
        #expect(view.snapshot.count == 2, "one song per path")
        // A change to alpha's item reaches beta's view as nothing.
        try alpha.setRating(id: alphaItem, 2)
        view.refresh()
        #expect(view.snapshot.count == 2)
        #expect(throws: OtherHostItems.self) { try library.requireThisHost(try alpha.items(MediaQuery()), doing: "play") }
        library.readThisHostOnly(false)
        #expect(try beta.count(MediaQuery()) == 3)
    }

    /// Opening costs a round trip each over a slow link (issue 38: 200 ms each): an up-to-date, registered
    /// host opens the library in one statement (the schema's steps, the item columns and this host's record
    /// together), also when its id is its name.
    @Test func aRegisteredHostOpensTheLibraryInOneStatement() throws {
        let locator = try Self.library()
        _ = try Self.seed(try Self.open(locator, HostIdentity(id: "den", name: "den")))
        let again = try Self.open(locator, HostIdentity(id: "den", name: "den"))
        #expect(again.session.statementsSent == 1)
        #expect(try again.roots() == [MediaPath("/music")])
    }

    /// The scan lock is taken on the store's own connection (one connection per command: another cost a
    /// connect and a TLS and SCRAM handshake, ~1.5 s over a slow link) and still keeps two scans of one
    /// root apart, in one process (advisory locks are re-entrant on a session) and across processes.
    @Test func aScanLockSharesTheStoresConnectionAndStillExcludes() throws {
        let locator = try Self.library()
        let index = try Self.open(locator, HostIdentity(id: "h", name: "h"))
        let before = index.session.statementsSent
        var first: PostgresRootLock? = try PostgresRootLock(index: index, roots: [MediaPath("/music")], timeout: 0)
        #expect(index.session.statementsSent == before + 1, "taken on the store's own connection")
        #expect(throws: PostgresRootLock.Failure.self) { try PostgresRootLock(index: index, roots: [MediaPath("/music")], timeout: 0) }
        let other = try Self.open(locator, HostIdentity(id: "h", name: "h"))
        #expect(throws: PostgresRootLock.Failure.self) { try PostgresRootLock(index: other, roots: [MediaPath("/music")], timeout: 0) }
        first = nil
        _ = first
        // The release is sent without waiting for its answer (a round trip at the end of every scan): another
        // connection may ask a moment before the server has run it.
        #expect(try PostgresRootLock(index: other, roots: [MediaPath("/music")], timeout: 5).roots == [MediaPath("/music")])
    }

    /// A scan asks for its roots once (issue 38: 5 times, a round trip each): remembered between
    /// `rememberRoots(true)` and `(false)`, forgotten when this store writes a root.
    @Test func aScanAsksForTheRootsOnce() throws {
        let index = try Self.open(try Self.library(), HostIdentity(id: "h", name: "h"))
        _ = try Self.seed(index)
        func statements(_ body: () throws -> Void) rethrows -> Int {
            let before = index.session.statementsSent
            try body()
            return index.session.statementsSent - before
        }
        #expect(try statements { _ = try index.roots(); _ = try index.rootStates() } == 2)
        index.rememberRoots(true)
        #expect(try statements { _ = try index.roots(); _ = try index.rootStates(); _ = try index.roots() } == 1)
        try index.addRoot(MediaPath("/more"))
        #expect(try index.roots() == [MediaPath("/more"), MediaPath("/music")], "a root written is asked again")
        index.rememberRoots(false)
        #expect(try statements { _ = try index.roots(); _ = try index.roots() } == 2)
    }
}
