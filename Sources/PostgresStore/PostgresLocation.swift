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
    /// The name this machine gives its roots in a shared library (`MLIB_HOST`, else the host name), so
    /// that `/music` on two hosts are two roots.
    public var rootHost: String

    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw IndexError.cannotOpen(database: url, reason: "not a postgres:// URL")
        }
        func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let parameters = Dictionary((components.queryItems ?? []).compactMap { item in item.value.map { (item.name, $0) } },
                                    uniquingKeysWith: { _, last in last })
        let port = components.port ?? parameters["port"].flatMap(Int.init) ?? env("PGPORT").flatMap(Int.init) ?? 5432
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
        rootHost = env("MLIB_HOST") ?? Self.hostName()
        do {
            tls = try PostgresTLS(parameters: parameters, environment: env, home: env("HOME") ?? NSHomeDirectory())
        } catch {
            throw IndexError.cannotOpen(database: Self.describe(endpoint, user, database), reason: error.reason)
        }
    }

    /// The locator without its password (for messages).
    public var description: String { Self.describe(endpoint, user, database) }

    static func describe(_ endpoint: Endpoint, _ user: String, _ database: String) -> String {
        switch endpoint {
        case .tcp(let host, let port): "postgres://\(user)@\(host):\(port)/\(database)"
        case .unixSocket(let path): "postgres://\(user)@/\(database) (socket \(path))"
        }
    }

    /// libpq's default socket directory on Debian, where its server listens.
    static let defaultSocketDirectory = "/var/run/postgresql"

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func loginName() -> String {
        if let pw = getpwuid(geteuid()), let name = pw.pointee.pw_name { return String(cString: name) }
        return "postgres"
    }
}
