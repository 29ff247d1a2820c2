import Foundation
@testable import MediaIndex
@testable import PostgresStore
import Library
import MediaModel
import PostgresTestServer
import Testing

/// Issue 38, "few round trips" for a server whose library is remote: the live view looked for changes with
/// six statements every half second on the store's one connection, and every request waited behind them
/// (a Subsonic `ping` took 0.83 s at 200 ms RTT); every request asked for its user, most for its stars.
/// Now the view looks on a connection of its own when a writer's NOTIFY is heard (the poll a slow
/// fallback), and users and stars come from memory while writes are heard.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresWriteNotificationTests {
    static let schema = ViewSchema(slots: [.init("Title", multiValued: false) { $0.title }], properties: [])

    @Test func theViewLooksOnAConnectionOfItsOwnAndHearsAnotherHostsWrites() throws {
        let locator = try #require(PostgresTestServer.shared).makeDatabase()
        let index = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: "h-1", name: "den"))
        try index.addRoot(MediaPath("/music"))
        try index.apply([.add(sampleItem("/music/a.mp3", title: "Jóga"), stamp(1000), fingerprint: 7)], generation: 1)
        let view = try LiveView(store: index, schema: Self.schema)
        let watching = view.watch(every: .milliseconds(100)) { _ in }
        defer { view.stop(watching) }
        let before = index.session.statementsSent
        usleep(1_000_000)
        #expect(index.session.statementsSent == before, "the view's looks went over the store's connection")

        let other = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: "h-2", name: "study"))
        try other.addRoot(MediaPath("/music"))
        try other.apply([.add(sampleItem("/music/b.mp3", title: "Hunter"), stamp(2000), fingerprint: 8)], generation: 2)
        // Well within the fallback poll's interval: the write was heard.
        let seen = PostgresReconnectionTests.eventually(within: 2) { view.snapshot.count == 2 }
        #expect(view.hearsWrites)
        #expect(seen != nil, "the view did not see another host's write within 2 s (its fallback looks every \(LiveView.notifiedInterval))")
        #expect(index.session.statementsSent == before, "the view's looks went over the store's connection")
    }

    @Test func usersAndStarsComeFromMemoryWhileWritesAreHeard() throws {
        let locator = try #require(PostgresTestServer.shared).makeDatabase()
        let index = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: "h-1", name: "den"))
        let other = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: "h-2", name: "study"))
        try index.addUser(UserAccount(name: "alice", password: "sealed", apiKey: "sha256:aa", isAdmin: false, created: Date()))
        let view = try LiveView(store: index, schema: Self.schema)
        let watching = view.watch(every: .milliseconds(500)) { _ in }
        defer { view.stop(watching) }

        #expect(try index.user(named: "alice")?.name == "alice")
        _ = try index.stars(of: "alice")
        let before = index.session.statementsSent
        for _ in 0..<5 {
            #expect(try index.user(named: "alice") != nil)
            #expect(try index.user(apiKey: "sha256:aa")?.name == "alice")
            #expect(try index.stars(of: "alice").isEmpty)
        }
        #expect(index.session.statementsSent == before, "users and stars were asked of the database again")

        // Another host's writes empty the memory: the next answers are the new ones.
        try other.addUser(UserAccount(name: "bob", password: "sealed", apiKey: nil, isAdmin: false, created: Date()))
        try other.star([UserStar(kind: .song, key: "7", starred: Date())], for: "alice")
        #expect(PostgresReconnectionTests.eventually(within: 2) { try index.user(named: "bob") != nil } != nil, "bob never appeared")
        #expect(PostgresReconnectionTests.eventually(within: 2) { try index.stars(of: "alice").count == 1 } != nil, "alice's star never appeared")
        _ = try other.removeUser(named: "alice")
        #expect(PostgresReconnectionTests.eventually(within: 2) { try index.user(named: "alice") == nil } != nil, "alice stayed")
        // This store's own writes are seen at once.
        try index.addUser(UserAccount(name: "carol", password: "sealed", apiKey: nil, isAdmin: true, created: Date()))
        #expect(try index.user(named: "carol")?.isAdmin == true)
    }
}
