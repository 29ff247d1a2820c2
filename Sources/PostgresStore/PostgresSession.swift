import Foundation
import MediaIndex
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// One connection to a PostgreSQL library, used synchronously: the store protocols are synchronous (the
/// scanner's writer thread, the CLI), so each call sends its statements through postgres-nio's
/// `EventLoopFuture` API and waits for the answer on the caller's thread. The connection runs on an event
/// loop of its own (`eventLoops`, one thread, started on first use: a process that never opens PostgreSQL
/// starts none); callers are never on that loop, so `wait()` cannot deadlock it. A lock keeps one caller at
/// a time on the connection: a transaction's statements are never interleaved with another thread's.
final class PostgresSession: @unchecked Sendable {
    /// One thread for every PostgreSQL connection of the process (they only pass bytes).
    private static let eventLoops = traced("event loop start") { MultiThreadedEventLoopGroup(numberOfThreads: 1) }
    static let logger = Logger(label: "mlib.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    private static let ids = NIOLockedValueBox(0)

    let location: PostgresLocation
    /// The connection; another one replaces it when it was lost (`run`). Guarded by `lock`.
    private var connection: PostgresConnection
    private let attempts: [PostgresConnection.Configuration.TLS?]
    /// When a lost connection may next be made again, and the wait after a failed try (`run`). Guarded by `lock`.
    private var reconnection = Reconnection()
    private let lock = NIOLock()
    /// Who listens for notifications on this session (`listen`), listening again on every new connection.
    /// Guarded by `lock`.
    private var listeners: [Listener] = []
    struct Listener: Sendable {
        let channel: String
        let onNotification: @Sendable () -> Void
        let onListening: @Sendable (Bool) -> Void
    }
    /// Connections made again after one was lost (tests and logs read it).
    var reconnections: Int { lock.withLock { reconnection.made } }
    private let counts = NIOLockedValueBox(Counts())
    struct Counts { var statements = 0, rows = 0 }
    /// Statements sent so far, each one round trip, and rows received (tests count them).
    var statementsSent: Int { counts.withLockedValue { $0.statements } }
    var rowsReceived: Int { counts.withLockedValue { $0.rows } }

    init(_ location: PostgresLocation) throws {
        self.location = location
        let attempts: [PostgresConnection.Configuration.TLS?]
        switch location.endpoint {
        case .tcp:
            do { attempts = try location.tls.attempts() } catch {
                throw IndexError.cannotOpen(database: location.description, reason: error.reason)
            }
        case .unixSocket:
            attempts = [nil]
        }
        self.attempts = attempts
        connection = try Self.connect(location, attempts)
    }

    /// Backoff for connecting again after the connection was lost (a server restart, a network cut): the
    /// first try at the next call, then waits doubling from 0.25 s up to 2 s between tries, so that a
    /// server back after a restart is answering again within a few seconds and one that stays away costs
    /// a failed connect per 2 s, not one per call.
    struct Reconnection {
        var notBefore = Date.distantPast
        var wait = 0.0
        var made = 0
        static let firstWait = 0.25, longestWait = 2.0
    }

    /// The connection to use now: the current one, or, when it was lost, a new one (errors in mlib's words;
    /// within the backoff's wait, the loss itself). Under `lock`.
    private func liveConnection() throws -> PostgresConnection {
        guard connection.isClosed else { return connection }
        let now = Date()
        guard now >= reconnection.notBefore else {
            throw IndexError.database(database: location.description, reason: Self.connectionLost + "; connecting again")
        }
        do {
            connection = try Self.connect(location, attempts)
            reconnection.wait = 0
            reconnection.made += 1
            Self.logReconnection("connected again to \(location.description)")
            for listener in listeners { try startListening(listener, on: connection) }
            return connection
        } catch {
            reconnection.wait = min(max(reconnection.wait * 2, Reconnection.firstWait), Reconnection.longestWait)
            reconnection.notBefore = now.addingTimeInterval(reconnection.wait)
            throw error
        }
    }

    /// One line on standard error when a lost connection is made again (a server's log shows it healed).
    static func logReconnection(_ text: String) {
        FileHandle.standardError.write(Data("mlib: postgres: \(text)\n".utf8))
    }

    /// Connects with the first of `attempts` (TLS settings; nil on a socket) that the server accepts: the
    /// next is tried only when the server answered and refused (libpq's `sslmode=allow` and `prefer`), not
    /// when it could not be reached. Errors in mlib's words.
    private static func connect(_ location: PostgresLocation, _ attempts: [PostgresConnection.Configuration.TLS?]) throws -> PostgresConnection {
        var failure: (any Error)?
        for tls in attempts {
            var configuration: PostgresConnection.Configuration
            switch location.endpoint {
            case .tcp(let host, let port):
                configuration = .init(host: host, port: port, username: location.user, password: location.password,
                                      database: location.database, tls: tls ?? .disable)
            case .unixSocket(let path):
                configuration = .init(unixSocketPath: path, username: location.user, password: location.password,
                                      database: location.database)
            }
            configuration.options.connectTimeout = .milliseconds(Int64(location.connectTimeout * 1000))
            // Set at startup, not by a statement (no round trip): the JIT took a minute compiling the generated
            // OR/IN queries that run in milliseconds without it, and no statement may run unbounded.
            // Issue 38: a host that vanishes (a cut link, a laptop closed mid-scan) must not keep its locks: the
            // server gives up on a dead connection within about 25 s (`PostgresLinkTimeouts`) and closes it,
            // with its session's advisory locks; a transaction left idle for a minute is ended by the server.
            configuration.options.additionalStartupParameters = [
                ("jit", "off"), ("statement_timeout", String(Int64(location.statementTimeout * 1000))),
                ("idle_in_transaction_session_timeout", String(Self.idleInTransactionTimeout * 1000)),
            ] + PostgresLinkTimeouts.serverParameters
            let id = ids.withLockedValue { $0 += 1; return $0 }
            do {
                let loop = eventLoops.next()
                if case .tcp(let host, let port) = location.endpoint {
                    // Every TCP connection is mlib's own socket, with keepalives and TCP_USER_TIMEOUT (issue 38: a
                    // cut link hung a scan 332 s; postgres-nio's own bootstrap takes no socket options). verify-full
                    // to a host name: mlib's own handshake checks the name as libpq does; else postgres-nio's TLS.
                    let verified = PostgresVerifiedChannel.applies(location)
                    let channel = verified
                        ? try PostgresVerifiedChannel.connect(host: host, port: port, context: try location.tls.nameCheckedContext(),
                                                              on: loop, within: location.connectTimeout)
                        : try PostgresLinkTimeouts.connect(host: host, port: port, on: loop, within: location.connectTimeout)
                    var options = configuration.options
                    if !verified && !PostgresVerifiedChannel.isIPAddress(host) { options.tlsServerName = host }
                    configuration = .init(establishedChannel: channel, tls: verified ? .disable : (tls ?? .disable), username: location.user,
                                          password: location.password, database: location.database)
                    configuration.options = options
                }
                return try traced("connect") {
                    try answer(PostgresConnection.connect(on: loop, configuration: configuration, id: id, logger: logger),
                               within: location.connectTimeout + 5, onTimeout: {})
                }
            } catch {
                failure = error
                let refused = (error as? PSQLError)?.serverInfo != nil || location.tls.failure(error, host: "") != nil
                if !refused { break }
            }
        }
        let error = failure ?? Timeout()
        var host = ""
        if case .tcp(let name, _) = location.endpoint { host = name }
        if let failure = location.tls.failure(error, host: host) {
            throw IndexError.cannotOpen(database: location.description, reason: "cannot connect securely: " + failure)
        }
        throw IndexError.cannotOpen(database: location.description, reason: connectionFailure(error, location))
    }

    /// Seconds a transaction may stay idle before the server ends it (`idle_in_transaction_session_timeout`).
    static let idleInTransactionTimeout: Int64 = 60

    deinit {
        guard !connection.isClosed else { return }
        _ = try? Self.traced("close") { try Self.answer(connection.close(), within: 5, onTimeout: {}) }
    }

    /// Why connecting failed, in mlib's words (NIO's errors print as `SingleConnectionFailure(…)`): the
    /// server's own message when it answered (no such database, authentication failed), else what the
    /// operating system said about reaching it.
    static func connectionFailure(_ error: any Error, _ location: PostgresLocation) -> String {
        let place: String
        switch location.endpoint {
        case .tcp(let host, let port): place = "\(host):\(port)"
        case .unixSocket(let path): place = path
        }
        if let words = serverWords(error) { return words }
        if let e = error as? PSQLError, e.code == .authMechanismRequiresPassword {
            // The server answered and asked for a password none was given for (issue 38: this read "cannot
            // reach the server" and the driver's own words).
            return "the server at \(place) asks for \(location.user)'s password and none was given: put it in ~/.pgpass "
                + "(host:port:database:user:password, mode 600), PGPASSWORD or the locator"
        }
        var cause: any Error = error
        if let e = error as? PSQLError, let underlying = e.underlying { cause = underlying }
        let why: String
        switch cause {
        case let e as NIOConnectionError:
            if let first = e.connectionErrors.first { why = Self.systemWords(first.error) } else { why = "cannot resolve the host name \(e.host)" }
        case ChannelError.connectTimeout, is Timeout:
            why = "no answer within \(Int(location.connectTimeout)) s"
        default:
            if let e = error as? PSQLError, e.code == .serverClosedConnection || e.code == .uncleanShutdown {
                why = "the server closed the connection"
            } else {
                why = Self.systemWords(cause)
            }
        }
        return "cannot reach the PostgreSQL server at \(place): \(why)"
    }

    /// An I/O error as the C library words it ("Connection refused"), else the error's own text on one line.
    static func systemWords(_ error: any Error) -> String {
        if let e = error as? IOError { return String(cString: strerror(e.errnoCode)) }
        return "\(error)".replacingOccurrences(of: "\n", with: " ")
    }

    /// A statement for a connection already closed (by the server going away, or by `answer`'s time limit).
    struct ConnectionLost: Error {}

    /// The client's own limit on waiting for an answer passed (the server went away without closing the connection).
    struct Timeout: Error {}

    /// Waits for `future` at most `seconds` (postgres-nio's futures have no time limit of their own, and one
    /// sent over a connection that died can wait forever: a scan hung on its ROLLBACK after `pg_ctl stop
    /// -m immediate`). On the caller's thread, never the event loop's.
    static func answer<T: Sendable>(_ future: EventLoopFuture<T>, within seconds: Double, onTimeout: () -> Void) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let result = NIOLockedValueBox<Result<T, any Error>?>(nil)
        future.whenComplete { outcome in
            result.withLockedValue { $0 = outcome }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success, let outcome = result.withLockedValue({ $0 }) else {
            onTimeout()
            throw Timeout()
        }
        return try outcome.get()
    }

    /// With MLIB_TRACE_POSTGRES set, each connection and statement is one line on standard error: when it
    /// began (seconds since the epoch), how long it took, what it was (Benchmarks/postgres-bench.sh reads them).
    static let tracing = !(ProcessInfo.processInfo.environment["MLIB_TRACE_POSTGRES"] ?? "").isEmpty

    static func traced<T>(_ what: @autoclosure () -> String, _ body: () throws -> T) rethrows -> T {
        guard tracing else { return try body() }
        let start = Date()
        defer {
            let line = String(format: "mlib: postgres %.6f %.2f ms ", start.timeIntervalSince1970, -start.timeIntervalSinceNow * 1000)
                + what().replacingOccurrences(of: "\n", with: " ").prefix(120) + "\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        return try body()
    }

    /// The server's own words for an error it sent, with its detail (PSQLError's description hides them on purpose).
    static func serverWords(_ error: any Error) -> String? {
        guard let e = error as? PSQLError, let message = e.serverInfo?[.message] else { return nil }
        return message + (e.serverInfo?[.detail].map { " (\($0))" } ?? "")
    }

    /// An error in mlib's words: the server's own, else what became of the connection.
    static func reason(_ error: any Error) -> String {
        if let words = serverWords(error) { return words }
        if let e = error as? PSQLError {
            if e.code == .serverClosedConnection || e.code == .uncleanShutdown || e.code == .clientClosedConnection {
                return Self.connectionLost
            }
            // The socket failed under a connection that was up (a cut link: "No route to host", "Connection
            // timed out" from TCP_USER_TIMEOUT): said as the loss it is, the system's words after.
            if let underlying = e.underlying as? IOError { return Self.connectionLost + " (" + Self.systemWords(underlying) + ")" }
            if let underlying = e.underlying { return Self.systemWords(underlying) }
            return "\(e.code)"
        }
        if let e = error as? IndexError { return e.description }
        if error is ConnectionLost { return Self.connectionLost }
        if error is Timeout { return "the PostgreSQL server did not answer in time; the connection is closed" }
        return "\(error)"
    }

    static let connectionLost = "the connection to the PostgreSQL server was lost"

    /// The server's SQLSTATE for an error, when it sent one.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// A value the server refused (SQLSTATE class 22, data exception, or 54000, program limit exceeded: a
    /// NUL in a text, a value too large for an index entry), thrown by `run` and `transaction` only when the
    /// caller asks for it (a scan's batch records the file as a failure instead of losing the batch).
    struct Rejected: Error {
        var reason: String
    }

    static func isRejection(_ error: any Error) -> Bool {
        guard let state = sqlState(error) else { return false }
        return state.hasPrefix("22") || state == "54000"
    }

    /// Runs `body` alone on the connection, without a transaction around it unless `inTransaction` says one
    /// is open (each statement commits). Errors are `IndexError`s; with `passingRejections`, a refused
    /// value is `Rejected`.
    @discardableResult
    func run<T>(passingRejections: Bool = false, inTransaction: Bool = false, _ body: (PostgresStoreConnection.Executor) throws -> T) throws -> T {
        try lock.withLock {
            let deadline = location.statementTimeout == 0 ? 365 * 86400 : location.statementTimeout + 30
            let connection = try liveConnection()
            let executor = PostgresStoreConnection.Executor(connection: connection, counts: counts, deadline: deadline, inTransaction: inTransaction)
            do { return try body(executor) } catch let error as IndexError { throw error } catch where passingRejections && Self.isRejection(error) {
                throw Rejected(reason: Self.reason(error))
            } catch {
                throw IndexError.database(database: location.description, reason: Self.reason(error))
            }
        }
    }

    /// Listens on `channel` (PostgreSQL's LISTEN) from now on, on this connection and on every one that
    /// replaces it: `onNotification` is called for each notification, `onListening` with true when the
    /// listening starts (again) and false when its connection is lost (notifications may then be missed:
    /// the caller looks for itself). Both on the event loop: they must not block.
    func listen(_ channel: String, onNotification: @escaping @Sendable () -> Void, onListening: @escaping @Sendable (Bool) -> Void) throws {
        try lock.withLock {
            let listener = Listener(channel: channel, onNotification: onNotification, onListening: onListening)
            try startListening(listener, on: try liveConnection())
            listeners.append(listener)
        }
    }

    /// Under `lock`.
    private func startListening(_ listener: Listener, on connection: PostgresConnection) throws {
        connection.addListener(channel: listener.channel) { _, _ in listener.onNotification() }
        let sql = "LISTEN \"\(listener.channel)\""
        do {
            _ = try Self.traced(sql) {
                try Self.answer(connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger), within: location.connectTimeout + 5,
                                onTimeout: { let _: EventLoopFuture<Void> = connection.close() })
            }
        } catch {
            throw IndexError.database(database: location.description, reason: Self.reason(error))
        }
        counts.withLockedValue { $0.statements += 1 }
        connection.closeFuture.whenComplete { _ in listener.onListening(false) }
        listener.onListening(true)
    }

    /// Sends `sql` and returns without waiting for its answer (errors are dropped): for a last statement whose
    /// outcome nobody needs — the scan lock's release, whose round trip was the end of every scan over a slow
    /// link (issue 38). The connection runs its statements in order, so a later call's statements run after
    /// it; should the connection close first, the server drops what the statement would have released.
    func sendWithoutWaiting(_ sql: SQLStatement) {
        lock.withLock {
            guard !connection.isClosed else { return }
            let text = sql.rendered(PostgresSyntax.placeholder)
            Self.traced(text + " (not waited for)") {
                _ = connection.query(PostgresQuery(unsafeSQL: text, binds: PostgresStoreConnection.Executor.bindings(sql.values)),
                                     logger: Self.logger)
            }
            counts.withLockedValue { $0.statements += 1 }
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    func transaction<T>(passingRejections: Bool = false, begin: SQLStatement = "BEGIN",
                        _ body: (PostgresStoreConnection.Executor) throws -> T) throws -> T {
        try run(passingRejections: passingRejections, inTransaction: true) { x in
            try x.execute(begin)
            do {
                let result = try body(x)
                try x.execute("COMMIT")
                return result
            } catch {
                // Over a lost connection there is nothing to roll back (the server did), and no answer would come.
                if !x.connection.isClosed { _ = try? x.execute("ROLLBACK") }
                throw error
            }
        }
    }
}
