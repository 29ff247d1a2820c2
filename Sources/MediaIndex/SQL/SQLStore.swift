import Foundation
import MediaModel
import Synchronization

/// What a library store does, written once over `SQLConnection`: `SQLiteIndex` (SQLiteStore) and
/// `PostgresIndex` (PostgresStore) are subclasses that open their connection, migrate their schema and
/// answer what only their dialect can (full-text search, the scanner's batch writes). Every statement here
/// runs on both: the shared store tests run each one against SQLite and a real PostgreSQL server.
///
/// Rows of `items`, `failures`, `roots` and `mounts` belong to a host on PostgreSQL (one library, several
/// machines, each with its own roots); `host` is nil on SQLite, whose tables have no such column, and
/// `mine(…)` is then TRUE.
open class SQLStore: @unchecked Sendable {
    package let connection: any SQLConnection
    /// This machine's id for its roots and files (`HostIdentity` on PostgreSQL), on a library shared by
    /// several hosts; nil on SQLite.
    package let host: String?
    /// This machine's name, the label of `host` (in messages; a host of another id but this name with the
    /// same root is refused by `addRoot`); nil on SQLite.
    package let hostName: String?
    /// `readsThisHostOnly` (SQLStore+Hosts.swift).
    package let thisHostOnly = Mutex(false)
    /// `rememberRoots` (SQLStore+Roots.swift): shared with the scan's reader.
    package let scanFacts: ScanFactsMemo
    /// Users and stars in memory while the library's writes are heard (`UserReadCache`); shared with the
    /// store of a live view's change feed (`WriteNotifying`).
    package let userCache: UserReadCache
    /// The shares whose items a server of this host lists beside its own (`readsThisHostOnly`): those
    /// mounted here, by pseudo-host id (SQLStore+Shares.swift).
    package let readableShares = Mutex<[String]>([])
    /// The shares this host mounts elsewhere than where their rows are stored (`SharedRoot.isRelocated`):
    /// item reads translate their paths (SQLStore+Shares.swift).
    package let relocatedShares = Mutex<[SharedRoot]>([])
    /// The shares this host joined, for a server that lists those mounted here (`readShares`) and looks
    /// again at each view refresh whether each is mounted (`recheckMountedShares`).
    package let servedShares = Mutex<[SharedRoot]>([])
    /// What the library is called in messages: its file, or its server locator without a password.
    public let libraryName: String
    /// On a scan's reading connection only (`ScanStore.readingConnection`): directory states read many
    /// directories at a time.
    package let readAhead: DirectoryStateReadAhead?
    /// The dialect's query SQL (SQLStore+Reading.swift runs it).
    package let compiler: any QueryCompiling

    package init(connection: any SQLConnection, compiler: any QueryCompiling, host: String?, hostName: String? = nil,
                 libraryName: String, readAhead: DirectoryStateReadAhead? = nil, scanFacts: ScanFactsMemo = ScanFactsMemo(),
                 userCache: UserReadCache = UserReadCache()) {
        self.connection = connection
        self.scanFacts = scanFacts
        self.userCache = userCache
        self.compiler = compiler
        self.host = host
        self.hostName = hostName ?? host
        self.libraryName = libraryName
        self.readAhead = readAhead
    }

    package var syntax: any SQLSyntax { connection.syntax }

    /// The most comparisons and searches one query may hold, on every store.
    package static let maximumQueryTerms = 500

    /// `table.host = <this host>`, or TRUE where rows have no host.
    package func mine(_ column: String = "host") -> SQLStatement {
        guard let host else { return "TRUE" }
        return "\(raw: column) = \(host)"
    }

    /// The host column and value to add to an INSERT of a host's row ("" and nothing on SQLite).
    package func hostColumn(_ column: String = "host") -> (name: SQLStatement, value: SQLStatement) {
        guard let host else { return ("", "") }
        return ("\(raw: column), ", "\(host), ")
    }

    /// `column` is `root` or a path below it (an index range on the path bytes).
    package func under(_ root: MediaPath, column: String = "dir") -> SQLStatement {
        let (lower, upper) = root.rangeBelow
        return "(\(raw: column) = \(root) OR (\(raw: column) >= \(lower) AND \(raw: column) < \(upper)))"
    }

    // The entry points of every shared store call; in debug builds they stop a call made on an event loop.
    package func read<T>(_ body: (any SQLExecutor) throws -> T, call: StaticString = #function) throws -> T {
        EventLoopCheck.assertOffEventLoop(call)
        if let pinned = pinnedSnapshot { return try body(pinned) }
        return try connection.read(body)
    }

    /// Runs `body` with every read of this store on this thread inside it (`read`, and the calls made of
    /// reads) on one snapshot (`SQLConnection.snapshotRead`): for answers made of several reads that must
    /// agree (issue 38: the `.playlist` grouping listed the playlists, then read each one, while another host
    /// wrote). No write may be made inside.
    package func inOneSnapshot<T>(_ body: () throws -> T, call: StaticString = #function) throws -> T {
        EventLoopCheck.assertOffEventLoop(call)
        if pinnedSnapshot != nil { return try body() }
        return try connection.snapshotRead { x in
            let key = snapshotKey
            Thread.current.threadDictionary[key] = PinnedExecutor(executor: x)
            defer { Thread.current.threadDictionary[key] = nil }
            return try body()
        }
    }

    private var snapshotKey: String { "mlib.snapshot.\(ObjectIdentifier(self).hashValue)" }

    /// The executor of an `inOneSnapshot` under way on this thread, if any.
    private var pinnedSnapshot: (any SQLExecutor)? {
        (Thread.current.threadDictionary[snapshotKey] as? PinnedExecutor)?.executor
    }
    package func write<T>(_ body: (any SQLExecutor) throws -> T, call: StaticString = #function) throws -> T {
        EventLoopCheck.assertOffEventLoop(call)
        defer { scanFacts.forget(); userCache.invalidate() }
        return try connection.write(body)
    }

    /// An `IndexError.invalidArgument` naming this library.
    package func invalid(_ reason: String) -> IndexError { .invalidArgument(database: libraryName, reason: reason) }
}

/// An executor held for the calls inside `SQLStore.inOneSnapshot` (in the thread's dictionary: a class).
private final class PinnedExecutor {
    let executor: any SQLExecutor
    init(executor: any SQLExecutor) { self.executor = executor }
}
