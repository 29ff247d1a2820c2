import Foundation
@testable import MediaIndex
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// The item change log (`ItemChangeLog`, SQLite "v11", PostgreSQL "pg v6"): every path that writes `items`
/// is logged by the database itself, and a reader that asks from its last token misses nothing.
struct ItemChangeLogTests {
    /// On PostgreSQL the token is the oldest transaction running anywhere on the server, so other tests'
    /// writes may make an answer repeat items already seen (allowed); SQLite's answers are exact.
    private func changed(_ index: any LibraryStore, since token: Int64) throws -> (ids: Set<Int64>, token: Int64) {
        let changes = try #require(try index.itemChanges(since: token))
        return (Set(changes.ids), changes.token)
    }

    @Test(arguments: Store.available) func everyWriteToItemsIsLogged(_ store: Store) throws {
        let index = try store.emptyLibrary()
        var token = try index.changeToken()
        #expect(try changed(index, since: token).ids.isEmpty || store == .postgres)

        let ids = try add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B"), sampleItem("/m/c.mp3", title: "C")],
                          to: index)
        var answer = try changed(index, since: token)
        #expect(answer.ids.isSuperset(of: ids))
        token = answer.token
        if store == .sqlite { #expect(try changed(index, since: token).ids.isEmpty) }

        // User data, a rename (a move keeps the row), a changed file, a hidden item, a removal: each is seen.
        let steps: [(String, Int64, () throws -> Void)] = [
            ("rating", ids[0], { try index.setRating(id: ids[0], 4) }),
            ("play", ids[1], { try index.recordPlay(id: ids[1], at: Date()) }),
            ("move", ids[2], { try index.apply([.move(id: ids[2], to: MediaPath("/m/renamed.mp3"))], generation: nil) }),
            ("update", ids[0], {
                var retagged = sampleItem("/m/a.mp3", title: "A2")
                retagged.persistentID = ids[0]
                try index.apply([.update(id: ids[0], retagged, stamp(1000, 2), fingerprint: 7)], generation: nil)
            }),
            ("hide", ids[1], { try index.hideItems([ids[1]]) }),
            ("remove", ids[2], { try index.removeItems([ids[2]]) }),
        ]
        for (name, id, write) in steps {
            try write()
            answer = try changed(index, since: token)
            #expect(answer.ids.contains(id), "\(store): \(name)")
            if store == .sqlite { #expect(answer.ids == [id], "\(store): \(name)") }
            token = answer.token
        }
        #expect(try index.items(ids: [ids[1], ids[2]]).isEmpty, "hidden and removed items are no longer found")
    }

    /// Records of removed items are trimmed; a reader older than the trim reads everything again (nil),
    /// a newer one goes on.
    @Test(arguments: Store.available) func aReaderOlderThanTheTrimIsToldToReadEverything(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let first = try index.changeToken()
        let ids = try add((0..<5).map { sampleItem("/m/\($0).mp3", title: "\($0)") }, to: index)
        try index.removeItems(Array(ids[0..<3]))
        let recent = try index.changeToken()
        try index.trimItemChanges(keepingRemoved: 10)
        #expect(try index.itemChanges(since: first) != nil, "nothing past the newest 10 removals: nothing trimmed")
        try index.trimItemChanges(keepingRemoved: 1)
        #expect(try index.itemChanges(since: first) == nil)
        try index.setRating(id: ids[4], 3)
        // On PostgreSQL `recent` is the oldest transaction then running on the server: with other tests'
        // transactions open it may be older than the removals, and then it too is told to read everything.
        if let answer = try index.itemChanges(since: recent) {
            #expect(answer.ids.contains(ids[4]))
        } else {
            #expect(store == .postgres, "a reader newer than the trim goes on")
        }
    }

    /// PostgreSQL: transactions commit out of the order of their ids. A writer that started first and
    /// commits after a reader's look is still seen by that reader's next look. Beside it, a transaction
    /// older than everything runs in another database of the same server, as other suites' do in a
    /// parallel run: the change token is the server's oldest running transaction, so it holds every
    /// token back and answers repeat the items already written (allowed).
    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func aWriteCommittedAfterALaterOneIsNotMissed() throws {
        let elder = try ElderTransaction()
        defer { elder.finish() }
        let locator = try Store.postgres.newLocator(sqlitePath: "")
        let slow = try #require(try LibraryLocator(locator).open() as? PostgresIndex)
        let other = try LibraryLocator(locator).open()
        let ids = try add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B")], to: other)
        let start = try other.changeToken()
        let started = DispatchSemaphore(value: 0), proceed = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        final class Token: @unchecked Sendable { var value: Int64? }   // written before `started` is signalled
        let slowWrite = Token()
        Thread {
            // Takes its transaction id first (the write), commits last.
            _ = try? slow.write { x in
                try x.execute("UPDATE items SET rating = 1 WHERE id = \(ids[0])")
                slowWrite.value = try x.value("SELECT pg_current_xact_id()::text::bigint").integer
                started.signal()
                proceed.wait()
            }
            done.signal()
        }.start()
        started.wait()
        let slowToken = try #require(slowWrite.value)
        try other.setRating(id: ids[1], 2)
        let before = try #require(try other.itemChanges(since: start))
        let seenBefore = Dictionary(zip(before.ids, before.tokens), uniquingKeysWith: max)
        #expect(seenBefore[ids[1]] != nil)
        // ids[0] may be repeated from the add (the elder transaction holds every token back: what a parallel
        // run's other suites do), but never as the slow write, which has not committed.
        #expect(seenBefore[ids[0]] != slowToken)
        #expect(before.token <= slowToken, "the next token is past a transaction still running")
        proceed.signal()
        done.wait()
        let after = try #require(try other.itemChanges(since: before.token))
        #expect(Dictionary(zip(after.ids, after.tokens), uniquingKeysWith: max)[ids[0]] == slowToken, "the slow write was missed")
    }
}

/// A transaction with a transaction id, open in a database of its own on the test server until `finish()`:
/// while it runs, every snapshot's xmin on the server (PostgreSQL's change token) is at most its id.
final class ElderTransaction: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
    private var open = false

    init() throws {
        let index = try #require(try LibraryLocator(try Store.postgres.newLocator(sqlitePath: "")).open() as? PostgresIndex)
        let started = DispatchSemaphore(value: 0), finished = finished, done = done
        final class Flag: @unchecked Sendable { var set = false }   // written before `started` is signalled
        let began = Flag()
        Thread {
            _ = try? index.write { x in
                _ = try x.value("SELECT pg_current_xact_id()")
                began.set = true
                started.signal()
                finished.wait()
            }
            started.signal()   // when the transaction failed to begin: the check below says so instead of hanging
            done.signal()
        }.start()
        started.wait()
        open = began.set
        try #require(open, "the elder transaction did not begin")
    }

    func finish() {
        finished.signal()
        done.wait()
    }
}
