#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real PostgreSQL server for the tests, started once per test process: `initdb` and `pg_ctl` from
/// Debian's postgresql package in a temporary directory, listening only on a Unix socket there, run as
/// `nobody` when the tests run as root (CI does; initdb refuses root). Stopped when the process exits.
/// Where PostgreSQL is not installed, `shared` is nil and the reason is printed once: tests then skip.
public final class PostgresTestServer: Sendable {
    /// The server, or nil (with a printed reason) when PostgreSQL is not installed.
    public static let shared: PostgresTestServer? = {
        do { return try PostgresTestServer() } catch {
            print("◇ PostgreSQL tests skipped: \(error)")
            return nil
        }
    }()

    /// Whether PostgreSQL's server programs are installed here.
    public static var isInstalled: Bool { binDirectory() != nil }

    /// The directory holding the socket (`.s.PGSQL.5432`), the data and the log.
    public let directory: String
    let bin: String
    private static let counter = Counter()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private init() throws {
        guard let bin = Self.binDirectory() else {
            throw Failure(description: "no initdb under /usr/lib/postgresql/*/bin (install the postgresql package)")
        }
        self.bin = bin
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-pg-XXXXXX").path
        var buffer = Array(template.utf8CString)
        guard mkdtemp(&buffer) != nil else { throw Failure(description: "mkdtemp: \(String(cString: strerror(errno)))") }
        directory = String(cString: buffer)
        if geteuid() == 0 {
            // initdb refuses to run as root: the server runs as nobody, in a directory nobody owns.
            guard let nobody = getpwnam("nobody") else { throw Failure(description: "no user nobody") }
            chown(directory, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        }
        chmod(directory, 0o755)
        try Self.run(bin + "/initdb", ["-D", directory + "/data", "-U", "mlib", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        try Self.run(bin + "/pg_ctl", ["-D", directory + "/data", "-l", directory + "/log", "-w", "-o",
                                       "-k \(directory) -c listen_addresses='' -c fsync=off -c full_page_writes=off -c max_connections=200",
                                       "start"])
        Self.stopAtExit(bin: bin, data: directory + "/data")
    }

    /// A new, empty database on the server; returns its locator (`postgres://mlib@%2Fdir/name`).
    public func makeDatabase(_ prefix: String = "t") throws -> String {
        let name = "\(prefix)_\(getpid())_\(Self.counter.next())"
        try Self.run(bin + "/createdb", ["-h", directory, "-U", "mlib", name], asServer: false)
        return locator(database: name)
    }

    public func locator(database: String) -> String {
        "postgres://mlib@\(directory.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? directory)/\(database)"
    }

    // MARK: Running the server's programs

    static func binDirectory() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted(by: >)
        return versions.map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }

    /// Runs a program of the server's (as nobody when root and `asServer`), failing with its output.
    /// posix_spawn and waitpid rather than Foundation's Process: `pg_ctl start` leaves a daemon behind,
    /// and Process did not see its parent exit (the test hung with the child a zombie).
    static func run(_ program: String, _ arguments: [String], asServer: Bool = true) throws {
        let argv = (geteuid() == 0 && asServer) ? ["/usr/sbin/runuser", "-u", "nobody", "--", program] + arguments : [program] + arguments
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-pg-\(getpid())-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for p in cArguments { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = (status & 0x7f) == 0, code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            throw Failure(description: "\((program as NSString).lastPathComponent) failed (status \(status)): \(text)")
        }
    }

    private nonisolated(unsafe) static var stopCommand: [String] = []

    private static func stopAtExit(bin: String, data: String) {
        stopCommand = [bin + "/pg_ctl", "-D", data, "-m", "immediate", "stop"]
        atexit {
            let dir = (PostgresTestServer.stopCommand[2] as NSString).deletingLastPathComponent
            try? PostgresTestServer.run(PostgresTestServer.stopCommand[0], Array(PostgresTestServer.stopCommand.dropFirst()))
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()
        func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
    }
}
