import Foundation
import PostgresNIO
import MediaIndex
import MediaModel

/// The library store on a PostgreSQL server: one library that several hosts scan and query at once. It
/// conforms to the same protocols as `SQLiteIndex` and answers the scanner's primitives the same way, so
/// the scanner's identity policy (`Moves`) and every front work with it unchanged.
///
/// - Paths are qualified by host (`identity.id`, see `HostIdentity`): the scanner's primitives see this host's items,
///   roots, failures and mounts only; queries, playlists and statistics see the whole library.
/// - Scans of different roots run at once (`PostgresRootLock`: an advisory lock per root, not per library);
///   readers never wait for them (MVCC), and a scan killed at any moment leaves its last committed batch.
/// - Queries compile to SQL for what PostgreSQL answers exactly and a residual predicate the in-memory
///   evaluator applies (`PostgresQueryCompiler`), so both stores give the same answers.
public final class PostgresIndex: SQLStore, @unchecked Sendable {
    public let location: PostgresLocation
    let session: PostgresSession

    /// Who this host is in the library: its roots and items are the rows of `identity.id`.
    public let identity: HostIdentity

    /// Connects to the library at `location`, migrates its tables and records this host (`PostgresHosts`).
    /// `.create` creates the tables in a database without a library; `.existing` refuses such a database
    /// ("no library at …") and leaves it untouched. `identity`: this host's (`HostIdentity.current()` when nil).
    public convenience init(_ location: PostgresLocation, mode: LibraryOpenMode = .create, identity: HostIdentity? = nil) throws {
        let identity = try identity ?? HostIdentity.current(database: location.description)
        try self.init(location, identity: identity, readAhead: nil)
        let known = try PostgresSchema.migrate(session, creating: mode == .create, asking: PostgresHosts.probe(identity))
        do {
            noteRelocatedShares(PostgresHosts.relocatedShares(try PostgresHosts.register(session, identity, known: known)))
        } catch let refusal as PostgresHosts.Refusal {
            throw IndexError.cannotOpen(database: location.description, reason: refusal.reason)
        }
    }

    public convenience init(url: String) throws {
        try self.init(try PostgresLocation(url: url))
    }

    /// Another connection to the same library (the scanner reads directory state on it while it writes).
    public func secondConnection() throws -> PostgresIndex {
        let second = try PostgresIndex(location, identity: identity, readAhead: nil)
        second.noteRelocatedShares(relocatedShares.withLock { $0 })
        return second
    }

    /// A store on a connection of its own (`secondConnection`, a share's store: `shareStore`).
    convenience init(_ location: PostgresLocation, identity: HostIdentity, readAhead: DirectoryStateReadAhead?) throws {
        self.init(session: try PostgresSession(location), identity: identity, readAhead: readAhead, scanFacts: ScanFactsMemo())
    }

    private init(session: PostgresSession, identity: HostIdentity, readAhead: DirectoryStateReadAhead?, scanFacts: ScanFactsMemo,
                 userCache: UserReadCache = UserReadCache()) {
        self.location = session.location
        self.identity = identity
        self.session = session
        super.init(connection: PostgresStoreConnection(session: session), compiler: PostgresQueryCompiler(), host: identity.id,
                   hostName: identity.name, libraryName: location.description, readAhead: readAhead, scanFacts: scanFacts,
                   userCache: userCache)
    }
}

extension PostgresIndex: LibraryReader, UserDataStore, PlaylistStore, RootStore, ScanStore, ItemChangeLog, AnalysisStore {
    /// The scan's reader: this store's connection (issue 38: a connection of its own cost a connect, a TLS
    /// and SCRAM handshake, over a slow link), reading directory states ahead (one per scan), and sharing
    /// what the scan remembers (`rememberRoots`). It waits for the writer's batches on the one connection:
    /// it reads thousands of rows a statement, so it seldom has to.
    public func readingConnection() throws -> any ScanStore { scanReader() }

    func scanReader(rowsPerRead: Int = DirectoryStateReadAhead.defaultRowsPerRead) -> PostgresIndex {
        PostgresIndex(session: session, identity: identity, readAhead: DirectoryStateReadAhead(rowsPerRead: rowsPerRead), scanFacts: scanFacts,
                      userCache: userCache)
    }
}

extension PostgresIndex: WriteNotifying {
    /// A connection of its own that LISTENs for the writers' notifications (`PostgresStoreConnection.write`),
    /// sharing this store's user cache: each write heard empties it, and it is used only while the
    /// listening lasts.
    public func changeFeedStore(heard: @escaping @Sendable () -> Void) throws -> any LibraryStore {
        let feed = PostgresIndex(session: try PostgresSession(location), identity: identity, readAhead: nil, scanFacts: ScanFactsMemo(),
                                 userCache: userCache)
        feed.readsThisHostOnly = readsThisHostOnly
        let shares = readableShares.withLock { $0 }   // the shares mounted here, which a server lists too
        feed.readableShares.withLock { $0 = shares }
        let relocated = relocatedShares.withLock { $0 }   // the view's items at this host's mount points
        feed.relocatedShares.withLock { $0 = relocated }
        let cache = userCache
        try feed.session.listen(PostgresStoreConnection.writesChannel, onNotification: { cache.invalidate(); heard() },
                                onListening: { on in cache.setListening(on); heard() })
        return feed
    }
}
