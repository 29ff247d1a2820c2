import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PostgresTestServer
import TestSupport

/// The lab's PostgreSQL server: `initdb` and `pg_ctl` as `nobody` (as `PostgresTestServer`) inside the
/// server's namespace, listening on the bridge's address with TLS (a certificate naming `subjectAltName`,
/// signed by `certificates/root.crt`) and on a Unix socket in its directory, which the test itself uses
/// (`psql`, `createdb`): a socket path crosses network namespaces. The hosts log in as `mlib` without a
/// password (`trust` for 10.38.0.0/24).
final class LabServer: @unchecked Sendable {
    let directory: URL
    let namespace: String
    let bin: String
    private let options: String
    private var databases = 0

    init(lab directory: URL, namespace: String, address: String, subjectAltName: String) throws {
        guard let bin = PostgresTestServer.binDirectory() else { throw TestFailure("no initdb under /usr/lib/postgresql/*/bin") }
        self.bin = bin
        self.directory = directory
        self.namespace = namespace
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard let nobody = getpwnam("nobody") else { throw TestFailure("no user nobody") }
        chown(directory.path, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        try PostgresTestServer.run(bin + "/initdb", ["-D", directory.path + "/data", "-U", "mlib", "--auth=trust", "-E", "UTF8",
                                                    "--locale=C", "--no-sync"])
        try PostgresTestServer.makeCertificates(in: directory.path + "/certs", subjectAltName: subjectAltName)
        let hba = directory.path + "/data/pg_hba.conf"
        try (String(contentsOfFile: hba, encoding: .utf8) + "host all all 10.38.0.0/24 trust\n").write(toFile: hba, atomically: false, encoding: .utf8)
        options = "-k \(directory.path) -c fsync=off -c full_page_writes=off -c listen_addresses=\(address) -c ssl=on"
            + " -c ssl_cert_file=\(directory.path)/certs/server.crt -c ssl_key_file=\(directory.path)/certs/server.key"
        try start()
    }

    var certificates: String { directory.path + "/certs" }

    /// `pg_ctl` inside the server's namespace, as nobody.
    private func pgctl(_ arguments: [String]) throws {
        try PostgresTestServer.run(NetworkLab.ip, ["netns", "exec", namespace, "/usr/sbin/runuser", "-u", "nobody", "--", bin + "/pg_ctl",
                                                   "-D", directory.path + "/data"] + arguments, asServer: false)
    }

    func start() throws { try pgctl(["-l", directory.path + "/log", "-w", "-o", options, "start"]) }

    /// As a crash or a power cut of the server: backends killed, nothing flushed.
    func stopImmediately() throws { try pgctl(["-m", "immediate", "stop"]) }

    /// A new, empty database owned by `mlib`; its name.
    func makeDatabase(_ prefix: String = "music") throws -> String {
        databases += 1
        let name = "\(prefix)\(databases)"
        try PostgresTestServer.run(bin + "/createdb", ["-h", directory.path, "-U", "mlib", name], asServer: false)
        return name
    }

    /// The locator the hosts use: by name over the lab's network, without TLS unless `query` asks for it.
    func locator(database: String, query: String = "sslmode=disable") -> String {
        "postgres://mlib@\(NetworkLab.serverName)/\(database)?\(query)"
    }

    /// One SQL statement through the Unix socket (`psql -At`): its rows, one per line.
    func sql(_ statement: String, database: String) throws -> String {
        let result = try ChildProcess.run(bin + "/psql", ["-h", directory.path, "-U", "mlib", "-d", database, "-At", "-v", "ON_ERROR_STOP=1",
                                                          "-c", statement])
        guard result.status == 0 else { throw TestFailure("psql: \(result.stderr)") }
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The server's sessions from the lab's network (the hosts' connections) on `database`.
    func hostSessions(database: String) throws -> Int {
        Int(try sql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND client_addr IS NOT NULL", database: database)) ?? -1
    }

    /// Advisory locks held on `database` (the scans' root locks).
    func advisoryLocks(database: String) throws -> Int {
        Int(try sql("SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND d.datname = '\(database)'",
                    database: database)) ?? -1
    }
}
