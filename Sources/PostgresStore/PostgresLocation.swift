import Foundation
import MediaIndex

/// Where a PostgreSQL library is, from a `postgres://user:password@host:port/database` locator and, for
/// what it leaves out, the variables libpq reads (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE), so
/// that `mlib --library postgres:///music` works wherever `psql music` does. A host that is a directory
/// (`PGHOST=/run/postgresql`, or `?host=/tmp/dir` in the URL) is a Unix socket there, as in libpq. A
/// password given nowhere is looked up in libpq's password file (`PostgresPassFile`). TLS: `PostgresTLS`.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    public enum Endpoint: Sendable, Hashable {
        case tcp(host: String, port: Int)
        case unixSocket(path: String)
    }
    public var endpoint: Endpoint
    public var user: String
    public var password: String?
    public var database: String
    /// How a TCP connection is secured (`sslmode`, `sslrootcert`, as libpq; a socket never is).
    public var tls: PostgresTLS
    /// How long one statement may run (`MLIB_POSTGRES_TIMEOUT`, seconds; default 5 minutes): the server's
    /// `statement_timeout`, and, a little later, the client's own limit for an answer (`PostgresSession`),
    /// so that neither a runaway query nor a server that went away holds a command forever.
    public var statementTimeout: Double
    /// How long connecting may take (`connect_timeout` in the locator or `PGCONNECT_TIMEOUT`, seconds, as
    /// libpq; default 10 s, where libpq waits without limit).
    public var connectTimeout: Double

    /// The statement timeout without `MLIB_POSTGRES_TIMEOUT`.
    public static let defaultStatementTimeout: Double = 300

    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw IndexError.cannotOpen(database: Self.redacted(url), reason: "not a valid postgres:// URL")
        }
        func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let parameters = Dictionary((components.queryItems ?? []).compactMap { item in item.value.map { (item.name, $0) } },
                                    uniquingKeysWith: { _, last in last })
        func refuse(_ reason: String) -> IndexError { IndexError.cannotOpen(database: Self.redacted(url), reason: reason) }
        // As libpq: a port that is not a number from 1 to 65535 is refused, not replaced by the default.
        let port: Int
        if let text = components.port.map(String.init) ?? parameters["port"] ?? env("PGPORT") {
            guard let number = Int(text), (1...65535).contains(number) else {
                throw refuse("invalid port number: \"\(text)\" (from 1 to 65535)")
            }
            port = number
        } else {
            port = 5432
        }
        func seconds(_ text: String?, _ name: String, default value: Double) throws -> Double {
            guard let text else { return value }
            guard let number = Double(text), number.isFinite, number >= 0 else {
                throw refuse("invalid \(name) value: \"\(text)\" (a number of seconds)")
            }
            return number
        }
        statementTimeout = try seconds(env("MLIB_POSTGRES_TIMEOUT"), "MLIB_POSTGRES_TIMEOUT", default: Self.defaultStatementTimeout)
        // libpq: 0 is no limit, and less than 2 s is 2 s.
        let connect = try seconds(parameters["connect_timeout"] ?? env("PGCONNECT_TIMEOUT"), "connect_timeout", default: 10)
        connectTimeout = connect == 0 ? 24 * 3600 : max(connect, 2)
        let host = (components.percentEncodedHost.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding })
            ?? parameters["host"] ?? env("PGHOST")
        if let host, !host.hasPrefix("/") {
            endpoint = .tcp(host: host, port: port)
        } else {
            endpoint = .unixSocket(path: (host ?? Self.defaultSocketDirectory) + "/.s.PGSQL.\(port)")
        }
        user = (components.user?.removingPercentEncoding).flatMap { $0.isEmpty ? nil : $0 } ?? parameters["user"]
            ?? env("PGUSER") ?? Self.loginName()
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? (parameters["dbname"] ?? env("PGDATABASE") ?? user) : (path.removingPercentEncoding ?? path)
        password = components.password?.removingPercentEncoding ?? parameters["password"] ?? env("PGPASSWORD")
        if password == nil {
            // As libpq: a socket in its default directory also goes by "localhost", and so does no host at all.
            let hosts = host.map { $0 == Self.defaultSocketDirectory ? [$0, "localhost"] : [$0] } ?? ["localhost"]
            let file = parameters["passfile"] ?? env("PGPASSFILE")
                ?? ((env("HOME") ?? NSHomeDirectory()) + "/.pgpass")
            password = PostgresPassFile(path: file)?.password(hosts: hosts, port: port, database: database, user: user)
        }
        do {
            tls = try PostgresTLS(parameters: parameters, environment: env, home: env("HOME") ?? NSHomeDirectory())
        } catch {
            throw IndexError.cannotOpen(database: Self.describe(endpoint, user, database), reason: error.reason)
        }
    }

    /// The locator without its password (for messages).
    public var description: String { Self.describe(endpoint, user, database) }

    /// A locator's text with its password left out (`LibraryLocator.redacted`).
    public static func redacted(_ text: String) -> String { LibraryLocator.redacted(text) }

    static func describe(_ endpoint: Endpoint, _ user: String, _ database: String) -> String {
        switch endpoint {
        case .tcp(let host, let port): "postgres://\(user)@\(host):\(port)/\(database)"
        case .unixSocket(let path): "postgres://\(user)@/\(database) (socket \(path))"
        }
    }

    /// libpq's default socket directory on Debian, where its server listens.
    static let defaultSocketDirectory = "/var/run/postgresql"

    static func hostName() -> String { HostName.current ?? "localhost" }

    static func loginName() -> String {
        if let pw = getpwuid(geteuid()), let name = pw.pointee.pw_name { return String(cString: name) }
        return "postgres"
    }
}
