#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import MediaIndex

/// A real PostgreSQL server for the tests, started once per test process: `initdb` and `pg_ctl` from
/// Debian's postgresql package in a temporary directory, listening only on a Unix socket there, run as
/// `nobody` when the tests run as root (CI does; initdb refuses root). Stopped when the process exits.
/// Where PostgreSQL is not installed, `shared` is nil and the reason is printed once: tests then skip.
public final class PostgresTestServer: Sendable {
    /// The server, or nil (with a printed reason) when PostgreSQL is not installed.
    public static let shared: PostgresTestServer? = {
        do { return try PostgresTestServer() } catch {
            print(isRequired ? "✘ PostgreSQL is required (MLIB_REQUIRE_POSTGRES) and did not start: \(error)"
                  : "◇ PostgreSQL tests skipped: \(error)")
            return nil
        }
    }()

    /// Whether PostgreSQL's server programs are installed here; always true with `MLIB_REQUIRE_POSTGRES` set
    /// (CI sets it): the PostgreSQL tests then run, and fail, where the server is missing or does not start,
    /// instead of being skipped.
    public static var isInstalled: Bool { binDirectory() != nil || isRequired }

    /// `MLIB_REQUIRE_POSTGRES` is set (to anything but empty or 0).
    public static var isRequired: Bool { !["", "0"].contains(ProcessInfo.processInfo.environment["MLIB_REQUIRE_POSTGRES"] ?? "") }

    /// A second server for the TLS tests (PostgreSQL has no TLS on Unix sockets): `ssl=on` and TCP on
    /// 127.0.0.1 at a free port, with a certificate for `localhost` and 127.0.0.1 signed by a root made
    /// here by `openssl` (`certificates`). Nil, with the reason printed, where it cannot start.
    public static let withTLS: PostgresTestServer? = {
        do { return try PostgresTestServer(tls: true) } catch {
            print(isRequired ? "✘ PostgreSQL with TLS is required (MLIB_REQUIRE_POSTGRES) and did not start: \(error)"
                  : "◇ PostgreSQL TLS tests skipped: \(error)")
            return nil
        }
    }()

    /// A third server, as `withTLS` but whose certificate names only the address 127.0.0.1 (no DNS name):
    /// verify-full to `localhost` must refuse it, as libpq does (issue 38).
    public static let withIPOnlyCertificate: PostgresTestServer? = {
        do { return try PostgresTestServer(tls: true, subjectAltName: "IP:127.0.0.1") } catch {
            print(isRequired ? "✘ PostgreSQL with TLS is required (MLIB_REQUIRE_POSTGRES) and did not start: \(error)"
                  : "◇ PostgreSQL TLS tests skipped: \(error)")
            return nil
        }
    }()

    /// The directory holding the socket (`.s.PGSQL.5432`), the data and the log.
    public let directory: String
    /// The TCP port on 127.0.0.1 (the TLS server only).
    public let port: Int?
    /// The TLS server's files: `root.crt` (signed its certificate), `other-root.crt` (signed nothing).
    public var certificates: String { directory + "/certs" }
    let bin: String
    /// `pg_ctl -o`'s options (socket directory, TLS, …), for `start()`.
    private let options: String
    private static let counter = Counter()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private init(tls: Bool = false, subjectAltName: String = "DNS:localhost,IP:127.0.0.1") throws {
        guard let bin = Self.binDirectory() else {
            throw Failure(description: "no initdb under /usr/lib/postgresql/*/bin (install the postgresql package)")
        }
        self.bin = bin
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-pg-XXXXXX").path
        var buffer = Array(template.utf8CString)
        guard mkdtemp(&buffer) != nil else { throw Failure(description: "mkdtemp: \(String(cString: strerror(errno)))") }
        directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The libraries the tests open in this process keep their host id and key file where the tests'
        // children keep theirs (`TestConfiguration`), not in the runner's own ~/.config.
        ConfigurationDirectory.environmentOverrides["XDG_CONFIG_HOME"] = TestConfiguration.directory
        if geteuid() == 0 {
            // initdb refuses to run as root: the server runs as nobody, in a directory nobody owns.
            guard let nobody = getpwnam("nobody") else { throw Failure(description: "no user nobody") }
            chown(directory, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        }
        chmod(directory, 0o755)
        try Self.run(bin + "/initdb", ["-D", directory + "/data", "-U", "mlib", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        var options = "-k \(directory) -c fsync=off -c full_page_writes=off -c max_connections=200"
        if tls {
            let port = try Self.freePort()
            try Self.makeCertificates(in: directory + "/certs", subjectAltName: subjectAltName)
            // 127.0.0.2 too: the same server under a name its certificate does not give.
            let hba = directory + "/data/pg_hba.conf"
            // plain_only refuses TLS connections and tls_only plain ones (libpq's sslmode=prefer and allow then
            // try the other way): first, since the first matching line decides.
            // password_only asks for a password (SCRAM), which no test gives: "none was given" is tested on it.
            let rules = """
                hostssl plain_only all 127.0.0.0/8 reject
                hostnossl tls_only all 127.0.0.0/8 reject
                host password_only all 127.0.0.0/8 scram-sha-256

                """
            try (rules + String(contentsOfFile: hba, encoding: .utf8) + "host all all 127.0.0.0/8 trust\n")
                .write(toFile: hba, atomically: false, encoding: .utf8)
            options += " -c listen_addresses=127.0.0.1,127.0.0.2 -p \(port) -c ssl=on -c ssl_cert_file=\(directory)/certs/server.crt"
                + " -c ssl_key_file=\(directory)/certs/server.key"
            self.port = port
        } else {
            options += " -c listen_addresses=''"
            self.port = nil
        }
        self.options = options
        try start()
        Self.stopAtExit(bin: bin, data: directory + "/data")
        if tls {
            for name in ["plain_only", "tls_only", "password_only"] {
                try Self.run(bin + "/createdb", ["-h", directory, "-p", "\(port ?? 5432)", "-U", "mlib", name], asServer: false)
            }
        }
    }

    /// A server of the caller's own, which it may stop and start (the shared one must stay up for the
    /// other tests). Stopped at exit like the others.
    public static func makeOwn() throws -> PostgresTestServer { try PostgresTestServer() }

    /// Starts the server (again), waiting until it accepts connections.
    public func start() throws {
        try Self.run(bin + "/pg_ctl", ["-D", directory + "/data", "-l", directory + "/log", "-w", "-o", options, "start"])
    }

    /// Stops the server as a crash would: `pg_ctl stop -m immediate` (backends are killed, nothing is flushed).
    public func stopImmediately() throws {
        try Self.run(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "stop"])
    }

    /// A new, empty database on the server; returns its locator (`postgres://mlib@%2Fdir/name`).
    public func makeDatabase(_ prefix: String = "t") throws -> String {
        let name = "\(prefix)_\(getpid())_\(Self.counter.next())"
        try Self.run(bin + "/createdb", ["-h", directory, "-p", "\(port ?? 5432)", "-U", "mlib", name], asServer: false)
        return locator(database: name)
    }

    public func locator(database: String) -> String {
        "postgres://mlib@\(directory.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? directory)/\(database)"
            + (port.map { "?port=\($0)" } ?? "")
    }

    /// The database name a locator ends with.
    public static func databaseName(of locator: String) -> String {
        String(locator.split(separator: "/").last?.split(separator: "?").first ?? "")
    }

    /// A locator for a database on the TLS server over TCP (`host` 127.0.0.1 or localhost), with `query`
    /// (`sslmode=…`) appended.
    public func tcpLocator(database: String, host: String = "127.0.0.1", query: String) -> String {
        "postgres://mlib@\(host):\(port ?? 5432)/\(database)?\(query)"
    }

    // MARK: TLS

    /// A port nothing listens on now (the kernel's pick for port 0; the server takes it a moment later).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A root certificate, a server certificate it signs (for localhost and 127.0.0.1) and another root
    /// that signs nothing, made by openssl; the server's key readable by the server's user only, as
    /// PostgreSQL demands.
    public static func makeCertificates(in dir: String, subjectAltName: String) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let openssl = "/usr/bin/openssl"
        guard FileManager.default.isExecutableFile(atPath: openssl) else {
            throw Failure(description: "no /usr/bin/openssl (install the openssl package)")
        }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for root in ["root", "other-root"] {
            try run(openssl, ["req", "-x509"] + key + ["-keyout", "\(dir)/\(root).key", "-out", "\(dir)/\(root).crt",
                                                      "-days", "2", "-subj", "/CN=mlib test \(root)"], asServer: false)
        }
        try "subjectAltName=\(subjectAltName)\n".write(toFile: dir + "/server.ext", atomically: true, encoding: .utf8)
        try run(openssl, ["req"] + key + ["-keyout", "\(dir)/server.key", "-out", "\(dir)/server.csr", "-subj", "/CN=localhost"],
                asServer: false)
        try run(openssl, ["x509", "-req", "-in", "\(dir)/server.csr", "-CA", "\(dir)/root.crt", "-CAkey", "\(dir)/root.key",
                          "-CAcreateserial", "-days", "2", "-extfile", "\(dir)/server.ext", "-out", "\(dir)/server.crt"],
                asServer: false)
        chmod(dir + "/server.key", 0o600)
        if geteuid() == 0, let nobody = getpwnam("nobody") {
            for file in ["", "/server.key", "/server.crt"] { chown(dir + file, nobody.pointee.pw_uid, nobody.pointee.pw_gid) }
        }
    }

    // MARK: Running the server's programs

    public static func binDirectory() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted(by: >)
        return versions.map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }

    /// Runs a program of the server's (as nobody when root and `asServer`), failing with its output. Its
    /// output goes to a file, not a pipe: `pg_ctl start` leaves a daemon that keeps it open.
    public static func run(_ program: String, _ arguments: [String], asServer: Bool = true) throws {
        let argv = (geteuid() == 0 && asServer) ? ["/usr/sbin/runuser", "-u", "nobody", "--", program] + arguments : [program] + arguments
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-pg-\(getpid())-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        let child: SpawnedProcess
        do {
            child = try SpawnedProcess(argv[0], Array(argv.dropFirst()), stdout: .file(outputPath), stderr: .standardOutput)
        } catch {
            throw Failure(description: "cannot run \(argv[0]): \(error)")
        }
        child.waitUntilExit()
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard child.terminationReason == .exit && child.terminationStatus == 0 else {
            throw Failure(description: "\((program as NSString).lastPathComponent) failed (status \(child.terminationStatus)): \(text)")
        }
    }

    /// The servers to stop at exit (the shared one, and the TLS one when a test started it).
    private nonisolated(unsafe) static var stopCommands: [[String]] = []
    private static let stopLock = NSLock()

    private static func stopAtExit(bin: String, data: String) {
        stopLock.lock(); defer { stopLock.unlock() }
        if stopCommands.isEmpty {
            atexit {
                for command in PostgresTestServer.stopCommands {
                    let dir = (command[2] as NSString).deletingLastPathComponent
                    try? PostgresTestServer.run(command[0], Array(command.dropFirst()))
                    try? FileManager.default.removeItem(atPath: dir)
                }
            }
        }
        stopCommands.append([bin + "/pg_ctl", "-D", data, "-m", "immediate", "stop"])
    }

    final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()
        func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
    }
}
