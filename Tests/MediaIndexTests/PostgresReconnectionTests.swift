import Foundation
@testable import MediaIndex
@testable import PostgresStore
import Library
import MediaModel
import PostgresTestServer
import Testing

/// Issue 38, "sessions that heal": a PostgreSQL server restarted under a running server process (here the
/// `Library` and its `LiveView` in-process, as `mlib serve` holds them). Before, the store's one connection
/// stayed dead: every call failed and the view froze, silently, until the process was restarted.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresReconnectionTests {
    static func eventually(within seconds: Double, _ condition: () throws -> Bool) -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if (try? condition()) == true { return Date().timeIntervalSince(start) }
            usleep(50_000)
        }
        return nil
    }

    @Test func theStoreAndTheViewComeBackAfterTheServerRestarts() throws {
        let server = try PostgresTestServer.makeOwn()
        let locator = try server.makeDatabase()
        let index = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: "h-1", name: "den"))
        try index.addRoot(MediaPath("/music"))
        try index.apply([.add(sampleItem("/music/a.mp3", title: "Jóga"), stamp(1000), fingerprint: 7)], generation: 1)
        let view = try LiveView(store: index, schema: ViewSchema(slots: [.init("Title", multiValued: false) { $0.title }], properties: []))
        let watching = view.watch(every: Duration.milliseconds(200)) { _ in }
        defer { view.stop(watching) }
        #expect(view.snapshot.count == 1)

        try server.stopImmediately()
        // The view says the library cannot be read (MPD `status` shows it as `error:`, Subsonic as error 0).
        #expect(Self.eventually(within: 10) { view.lastError != nil } != nil, "the view never said the library is unreachable")
        #expect(throws: IndexError.self) { try index.count(MediaQuery()) }
        #expect(view.snapshot.count == 1, "the last snapshot stays in use")

        try server.start()
        // Answers resume within 5 s of the server being back, on the same store object.
        let resumed = Self.eventually(within: 5) { try index.count(MediaQuery()) == 1 }
        #expect(resumed != nil, "the store did not connect again within 5 s")
        // A write made meanwhile by another host reaches the view from the change log.
        let other = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: "h-2", name: "study"))
        try other.addRoot(MediaPath("/music"))
        try other.apply([.add(sampleItem("/music/b.mp3", title: "Hunter"), stamp(2000), fingerprint: 8)], generation: 2)
        let caughtUp = Self.eventually(within: 5) { view.snapshot.count == 2 && view.lastError == nil }
        let state = "\(view.snapshot.count) items, error: " + (view.lastError ?? "none")
        #expect(caughtUp != nil, "the view did not catch up within 5 s: \(state)")
        #expect(index.session.reconnections >= 1)
    }

    /// Every session sets the server-side limits that free a vanished host's locks within a minute.
    @Test func everySessionBoundsIdleTransactionsAndProbesItsPeer() throws {
        let locator = try #require(PostgresTestServer.shared).makeDatabase()
        let session = try PostgresSession(try PostgresLocation(url: locator))
        let settings = try session.run { x in
            try x.rows("""
                SELECT name, setting FROM pg_settings WHERE name IN
                    ('idle_in_transaction_session_timeout', 'tcp_keepalives_idle', 'tcp_keepalives_interval', 'tcp_keepalives_count')
                ORDER BY name
                """).map { "\($0.text(0) ?? "")=\($0.text(1) ?? "")" }
        }
        // The keepalive settings read 0 on a Unix socket (they apply to TCP only); the timeout everywhere.
        #expect(settings.contains("idle_in_transaction_session_timeout=60000"), "\(settings)")
    }
}
