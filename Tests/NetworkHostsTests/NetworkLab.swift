import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PostgresTestServer
import TestSupport

/// Issue 38's household on one machine: network namespaces made by the test, a PostgreSQL server in one
/// (`LabServer`), and hosts in others (`LabHost`), each behind a veth pair on a bridge in the server's
/// namespace (10.38.0.0/24, the server at 10.38.0.1, host n at 10.38.0.(10+n)). Each host runs the built
/// `mlib` with a host name of its own (`unshare --uts`), a home of its own, and its own view of one path
/// (`unshare --mount` and a bind mount of the host's own directory onto `music`), as well as its own
/// `/etc/hosts` (the server is `db.lab`) and `/etc/machine-id`.
///
/// Namespaces are named `mlibnet<pid>x<n>…`, so parallel runs cannot collide; `close()` (and `deinit`, and
/// the next lab of any run, for those a crashed run left) kills every process in them and deletes them. The
/// mounts live in the hosts' processes' own mount namespaces, so they go with the processes.
final class NetworkLab: @unchecked Sendable {
    /// Why labs cannot be made here (not root, no `ip`/`unshare`, no network namespaces, no PostgreSQL),
    /// or nil. Suites use it in `.enabled(if:)`, so the skip is shown with this reason.
    static let unavailableReason: String? = {
        if geteuid() != 0 { return "network namespaces need root (CI runs as root)" }
        for tool in [ip, unshare, "/bin/sh"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing"
        }
        if !PostgresTestServer.isInstalled { return "PostgreSQL is not installed" }
        let probe = "mlibnet\(getpid())probe"
        guard (try? command(ip, ["netns", "add", probe])) != nil else { return "ip netns add failed: no network namespaces here" }
        _ = try? command(ip, ["netns", "del", probe])
        return nil
    }()
    /// True where labs can be made, and as root under `MLIB_REQUIRE_POSTGRES` (CI): there a lab that
    /// cannot be made fails its test with the reason instead of skipping it.
    static var isAvailable: Bool { unavailableReason == nil || (PostgresTestServer.isRequired && geteuid() == 0) }

    static let ip = "/usr/sbin/ip"
    static let unshare = "/usr/bin/unshare"
    static let serverAddress = "10.38.0.1"
    static let serverName = "db.lab"

    let prefix: String
    let directory: URL
    /// The one path every host sees its own directory at.
    let music: URL
    let serverNamespace: String
    private(set) var server: LabServer!
    private(set) var hosts: [LabHost] = []
    private var namespaces: [String] = []
    private let lock = NSLock()
    private var closed = false

    private static let counter = NSLock()
    nonisolated(unsafe) private static var made = 0

    /// A lab with a server (its certificate naming `subjectAltName`) and one host per name in `hosts`.
    init(hosts names: [String], subjectAltName: String = "DNS:\(NetworkLab.serverName),IP:\(NetworkLab.serverAddress)") throws {
        if let reason = Self.unavailableReason { throw TestFailure(reason) }
        Self.removeLeftovers()
        let n: Int = { Self.counter.lock(); defer { Self.counter.unlock() }; Self.made += 1; return Self.made }()
        prefix = "mlibnet\(getpid())x\(n)"
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-XXXXXX").path
        var buffer = Array(template.utf8CString)
        guard mkdtemp(&buffer) != nil else { throw TestFailure("mkdtemp: \(String(cString: strerror(errno)))") }
        directory = URL(fileURLWithPath: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        chmod(directory.path, 0o755)
        music = directory.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        serverNamespace = prefix + "s"
        do {
            try addNamespace(serverNamespace)
            try Self.command(Self.ip, ["-n", serverNamespace, "link", "set", "lo", "up"])
            try Self.command(Self.ip, ["-n", serverNamespace, "link", "add", "br0", "type", "bridge"])
            try Self.command(Self.ip, ["-n", serverNamespace, "addr", "add", Self.serverAddress + "/24", "dev", "br0"])
            try Self.command(Self.ip, ["-n", serverNamespace, "link", "set", "br0", "up"])
            server = try LabServer(lab: directory.appendingPathComponent("server"), namespace: serverNamespace,
                                   address: Self.serverAddress, subjectAltName: subjectAltName)
            for (i, name) in names.enumerated() { hosts.append(try addHost(name, number: i + 1)) }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Another host on the bridge: its namespace, its veth pair (`eth0` there, `hN` on the bridge), its home,
    /// its music directory, its `/etc/hosts` and machine id.
    func addHost(_ name: String, number: Int) throws -> LabHost {
        let namespace = prefix + "h\(number)"
        try addNamespace(namespace)
        let port = "h\(number)"
        try Self.command(Self.ip, ["link", "add", "name", "eth0", "netns", namespace, "type", "veth", "peer", "name", port, "netns", serverNamespace])
        try Self.command(Self.ip, ["-n", serverNamespace, "link", "set", port, "master", "br0"])
        try Self.command(Self.ip, ["-n", serverNamespace, "link", "set", port, "up"])
        let address = "10.38.0.\(10 + number)"
        try Self.command(Self.ip, ["-n", namespace, "addr", "add", address + "/24", "dev", "eth0"])
        for device in ["lo", "eth0"] { try Self.command(Self.ip, ["-n", namespace, "link", "set", device, "up"]) }
        let host = try LabHost(lab: self, name: name, namespace: namespace, bridgePort: port, address: address,
                               directory: directory.appendingPathComponent("host\(number)"))
        return host
    }

    private func addNamespace(_ name: String) throws {
        try Self.command(Self.ip, ["netns", "add", name])
        lock.lock(); defer { lock.unlock() }
        namespaces.append(name)
    }

    /// One directory, the "NAS share", seen by each of `hosts` at the lab's `music` path (each host's own
    /// bind mount of it): for the shared-roots scenario (issue 38: a share mounted on two hosts must be one
    /// set of items). Returns the share's directory.
    @discardableResult
    func share(on hosts: [LabHost]) throws -> URL {
        let share = directory.appendingPathComponent("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        for host in hosts { host.music = share }
        return share
    }

    /// Cuts `host` off as a pulled cable or a dead switch port does: its port on the bridge goes down, so
    /// nothing it sends arrives and nothing reaches it, and neither end is told (no reset, no error).
    func cut(_ host: LabHost) throws {
        try Self.command(Self.ip, ["-n", serverNamespace, "link", "set", host.bridgePort, "down"])
    }

    func reconnect(_ host: LabHost) throws {
        try Self.command(Self.ip, ["-n", serverNamespace, "link", "set", host.bridgePort, "up"])
    }

    /// Stops every process in the lab's namespaces (the server first, as `pg_ctl` would not be able to once
    /// it is killed), deletes the namespaces and the lab's directory. Safe to call more than once.
    func close() {
        lock.lock()
        guard !closed else { lock.unlock(); return }
        closed = true
        let namespaces = self.namespaces
        lock.unlock()
        Self.remove(namespaces)
        try? FileManager.default.removeItem(at: directory)
    }

    private static func remove(_ namespaces: [String]) {
        for namespace in namespaces {
            let pids = ((try? command(ip, ["netns", "pids", namespace])) ?? "").split(separator: "\n").compactMap { pid_t($0) }
            for pid in pids { kill(pid, SIGKILL) }
            if !pids.isEmpty { _ = Poll.until(timeout: 5) { pids.allSatisfy { kill($0, 0) != 0 } } }
            _ = try? command(ip, ["netns", "del", namespace])
        }
    }

    /// Deletes the namespaces (and their processes) of labs whose test process is gone (a crashed run).
    private static func removeLeftovers() {
        let names = ((try? command(ip, ["netns", "list"])) ?? "").split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        let stale = names.filter { name in
            guard name.hasPrefix("mlibnet"), let pid = pid_t(name.dropFirst("mlibnet".count).prefix { $0.isNumber }) else { return false }
            return pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
        }
        remove(stale)
    }

    /// Runs a program to its end; its standard output, or a failure with its error output.
    @discardableResult
    static func command(_ program: String, _ arguments: [String]) throws -> String {
        let result = try ChildProcess.run(program, arguments)
        guard result.status == 0 else {
            throw TestFailure("\(program) \(arguments.joined(separator: " ")): status \(result.status): \(result.stderr)")
        }
        return result.out
    }
}
