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
    private static let logger = Logger(label: "mlib.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    private static let ids = NIOLockedValueBox(0)

    let location: PostgresLocation
    private let connection: PostgresConnection
    private let lock = NIOLock()
    private let counts = NIOLockedValueBox(Counts())
    struct Counts { var statements = 0, rows = 0 }
    /// Statements sent so far, each one round trip, and rows received (tests count them).
    var statementsSent: Int { counts.withLockedValue { $0.statements } }
    var rowsReceived: Int { counts.withLockedValue { $0.rows } }

    init(_ location: PostgresLocation) throws {
        self.location = location
        let configuration: PostgresConnection.Configuration
        switch location.endpoint {
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS
            do { tls = try location.tls.configuration() } catch {
                throw IndexError.cannotOpen(database: location.description, reason: error.reason)
            }
            configuration = .init(host: host, port: port, username: location.user, password: location.password,
                                  database: location.database, tls: tls)
        case .unixSocket(let path):
            configuration = .init(unixSocketPath: path, username: location.user, password: location.password,
                                  database: location.database)
        }
        let id = Self.ids.withLockedValue { $0 += 1; return $0 }
        do {
            let loop = Self.eventLoops.next()
            connection = try Self.traced("connect") {
                try PostgresConnection.connect(on: loop, configuration: configuration, id: id, logger: Self.logger).wait()
            }
        } catch {
            var host = ""
            if case .tcp(let name, _) = location.endpoint { host = name }
            if let failure = location.tls.failure(error, host: host) {
                throw IndexError.cannotOpen(database: location.description, reason: "cannot connect securely: " + failure)
            }
            throw IndexError.cannotOpen(database: location.description, reason: "cannot reach the PostgreSQL server: " + Self.reason(error))
        }
    }

    deinit {
        _ = try? Self.traced("close") { try connection.close().wait() }
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

    /// The server's own words for an error (PSQLError's description hides them on purpose).
    static func reason(_ error: any Error) -> String {
        if let e = error as? PSQLError {
            if let message = e.serverInfo?[.message] { return message + (e.serverInfo?[.detail].map { " (\($0))" } ?? "") }
            if let underlying = e.underlying { return "\(underlying)" }
            return "\(e.code)"
        }
        if let e = error as? IndexError { return e.description }
        return "\(error)"
    }

    /// The server's SQLSTATE for an error, when it sent one.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// Runs `body` alone on the connection, without a transaction around it (each statement commits).
    @discardableResult
    func run<T>(_ body: (Statements) throws -> T) throws -> T {
        try lock.withLock {
            do { return try body(Statements(connection: connection, counts: counts)) } catch let error as IndexError { throw error } catch {
                throw IndexError.database(database: location.description, reason: Self.reason(error))
            }
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    func transaction<T>(_ body: (Statements) throws -> T) throws -> T {
        try run { statements in
            try statements.execute("BEGIN")
            do {
                let result = try body(statements)
                try statements.execute("COMMIT")
                return result
            } catch {
                _ = try? statements.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// The statements of one call, on the locked connection.
    struct Statements {
        let connection: PostgresConnection
        let counts: NIOLockedValueBox<Counts>

        func query(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> [PostgresRow] {
            let rows = try PostgresSession.traced(sql) {
                try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: PostgresSession.logger).wait().rows
            }
            counts.withLockedValue { $0.statements += 1; $0.rows += rows.count }
            return rows
        }

        func query(_ sql: SQLText) throws -> [PostgresRow] { try query(sql.sql, sql.binds) }

        /// Runs a statement; returns the number of rows it changed.
        @discardableResult
        func execute(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> Int {
            counts.withLockedValue { $0.statements += 1 }
            return try PostgresSession.traced(sql) {
                try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: PostgresSession.logger).wait().metadata.rows ?? 0
            }
        }

        @discardableResult
        func execute(_ sql: SQLText) throws -> Int { try execute(sql.sql, sql.binds) }

        /// Streams rows to `body` as they arrive (`forEachItem`): rows are decoded on the event loop's
        /// thread into values, handed over here one batch at a time.
        func forEachRow(_ sql: SQLText, _ body: (PostgresRow) throws -> Void) throws {
            for row in try query(sql) { try body(row) }
        }

        /// Several statements, each ending with `;` at the end of a line (schema steps); no parameters.
        /// (postgres-nio sends every query as a prepared statement, which holds one command.)
        func script(_ sql: String) throws {
            for statement in sql.components(separatedBy: ";\n") where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                try execute(statement.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: ";")))
            }
        }

        func scalar<T: PostgresDecodable>(_ sql: SQLText, as type: T.Type) throws -> T? {
            guard let row = try query(sql).first else { return nil }
            return row.makeRandomAccess()[0].value(T.self)
        }
    }
}

/// SQL text with `$n` placeholders and the values bound to them, built piece by piece.
struct SQLText {
    var sql: String
    var binds = PostgresBindings()

    init(_ sql: String = "") { self.sql = sql }

    /// Appends a value and returns its placeholder.
    mutating func bind<T: PostgresDynamicTypeEncodable>(_ value: T?) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// Bytes (paths) as `bytea`.
    mutating func bind(_ value: Data?) -> String {
        bind(value.map { ByteBuffer(bytes: $0) })
    }

    mutating func bind(_ values: [Data]) -> String {
        bind(values.map { ByteBuffer(bytes: $0) })
    }
}

extension PostgresCell {
    /// The cell's value, nil when NULL or of another type (never throws: the schema fixes the types).
    func value<T: PostgresDecodable>(_ type: T.Type = T.self) -> T? {
        bytes == nil ? nil : try? decode(T.self)
    }
}
