import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Two network namespaces joined by a veth pair (`eth0` in each; the server's 10.43.n.1/24, the client's
/// 10.43.n.2/24), made by the test and deleted after it: a server and its client over a real link, where
/// SSDP's multicast runs and the link's own TCP settings can be changed (`limitSendBuffer`), and nothing
/// touches the machine's own network. NetworkHostsTests' `NetworkLab` is built around a PostgreSQL server on
/// a bridge; this needs only the pair, so it is its own small type (the same `ip netns` commands).
public final class VethLab: @unchecked Sendable {
    public static let ip = "/usr/sbin/ip"

    /// Why a lab cannot be made here, or nil (suites show it as the skip's reason).
    public static let unavailableReason: String? = {
        if geteuid() != 0 { return "network namespaces need root (CI runs as root)" }
        guard FileManager.default.isExecutableFile(atPath: ip) else { return "\(ip) is missing" }
        let probe = "mlibveth\(getpid())probe"
        guard (try? command(["netns", "add", probe])) != nil else { return "ip netns add failed: no network namespaces here" }
        _ = try? command(["netns", "del", probe])
        return nil
    }()

    public let server: String
    public let client: String
    public let serverAddress: String
    public let clientAddress: String

    private static let counter = NSLock()
    nonisolated(unsafe) private static var made = 0

    public init() throws {
        if let reason = Self.unavailableReason { throw TestFailure(reason) }
        let n: Int = { Self.counter.lock(); defer { Self.counter.unlock() }; Self.made += 1; return Self.made }()
        server = "mlibveth\(getpid())x\(n)s"
        client = "mlibveth\(getpid())x\(n)c"
        serverAddress = "10.43.\(n).1"
        clientAddress = "10.43.\(n).2"
        do {
            try Self.command(["netns", "add", server])
            try Self.command(["netns", "add", client])
            try Self.command(["link", "add", "name", "eth0", "netns", server, "type", "veth", "peer", "name", "eth0", "netns", client])
            try Self.command(["-n", server, "addr", "add", serverAddress + "/24", "dev", "eth0"])
            try Self.command(["-n", client, "addr", "add", clientAddress + "/24", "dev", "eth0"])
            for namespace in [server, client] {
                for device in ["lo", "eth0"] { try Self.command(["-n", namespace, "link", "set", device, "up"]) }
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// `ip netns exec NAMESPACE` and the command, for a child process.
    public func exec(in namespace: String, _ arguments: [String]) -> [String] { ["netns", "exec", namespace] + arguments }

    /// `mlib` with `arguments` in the server's namespace, its port read as `ServeChild` reads it.
    public func serve(environment: [String: String] = [:], _ arguments: [String]) throws -> ServeChild {
        try ServeChild(mlib: URL(fileURLWithPath: Self.ip), arguments: exec(in: server, [ChildProcess.mlib.path] + arguments),
                       environment: environment)
    }

    /// `mlib serve --dlna` (no MPD port) on the server namespace's eth0, any port, with `options` added.
    public func serveDLNA(environment: [String: String], _ options: [String] = []) throws -> ServeChild {
        try serve(environment: environment, ["serve", "--no-mpd", "--dlna", "--dlna-interface", "eth0", "--dlna-port", "0"] + options)
    }

    /// Runs `arguments` in the client's namespace.
    public func runClient(_ arguments: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run(Self.ip, exec(in: client, arguments))
    }

    /// Caps TCP's send buffer in `namespace` at `bytes` (its own `tcp_wmem`): a server's writes then wait on a
    /// slow client after a few hundred KiB instead of the megabytes the kernel would otherwise take for it.
    public func limitSendBuffer(in namespace: String, to bytes: Int) throws {
        let set = try ChildProcess.run(Self.ip, exec(in: namespace, ["sh", "-c", "echo '4096 16384 \(bytes)' > /proc/sys/net/ipv4/tcp_wmem"]))
        guard set.status == 0 else { throw TestFailure("cannot set tcp_wmem in \(namespace): \(set.stderr)") }
    }

    /// Kills what still runs in the namespaces and deletes them (the veth pair goes with them).
    public func close() {
        for namespace in [server, client] {
            let pids = ((try? Self.command(["netns", "pids", namespace])) ?? "").split(separator: "\n").compactMap { pid_t($0) }
            for pid in pids { kill(pid, SIGKILL) }
            _ = try? Self.command(["netns", "del", namespace])
        }
    }

    @discardableResult
    public static func command(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.run(ip, arguments)
        guard result.status == 0 else { throw TestFailure("ip \(arguments.joined(separator: " ")): status \(result.status): \(result.stderr)") }
        return result.out
    }
}
