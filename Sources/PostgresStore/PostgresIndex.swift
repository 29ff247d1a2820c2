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
            try PostgresHosts.register(session, identity, known: known)
        } catch let refusal as PostgresHosts.Refusal {
            throw IndexError.cannotOpen(database: location.description, reason: refusal.reason)
        }
    }

    public convenience init(url: String) throws {
        try self.init(try PostgresLocation(url: url))
    }

    /// Another connection to the same library (the scanner reads directory state on it while it writes).
    public func secondConnection() throws -> PostgresIndex {
        try PostgresIndex(location, identity: identity, readAhead: nil)
    }

    init(_ location: PostgresLocation, identity: HostIdentity, readAhead: DirectoryStateReadAhead?) throws {
        self.location = location
        self.identity = identity
        session = try PostgresSession(location)
        super.init(connection: PostgresStoreConnection(session: session), compiler: PostgresQueryCompiler(), host: identity.id,
                   hostName: identity.name, libraryName: location.description, readAhead: readAhead)
    }
}

extension PostgresIndex: LibraryReader, UserDataStore, PlaylistStore, RootStore, ScanStore, ItemChangeLog, AnalysisStore {
    /// The scan's reader: a connection of its own that reads directory states ahead (one per scan).
    public func readingConnection() throws -> any ScanStore { try scanReader() }

    func scanReader(rowsPerRead: Int = DirectoryStateReadAhead.defaultRowsPerRead) throws -> PostgresIndex {
        try PostgresIndex(location, identity: identity, readAhead: DirectoryStateReadAhead(rowsPerRead: rowsPerRead))
    }
}
