import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// One host of a `NetworkLab`: a network namespace of its own, and for every program it runs a host name
/// (`unshare --uts`), a home (`HOME`, `XDG_CONFIG_HOME`), its own directory bind-mounted onto the lab's
/// `music` path, its own `/etc/hosts` (the server as `db.lab`) and `/etc/machine-id` (`unshare --mount`:
/// the mounts are the process's own and go with it).
final class LabHost: @unchecked Sendable {
    unowned let lab: NetworkLab
    let namespace: String
    /// The host's port on the server's bridge (`NetworkLab.cut`).
    let bridgePort: String
    let address: String
    /// The host name its programs see; a test may change it (a renamed host, two hosts of one name).
    var name: String
    let home: URL
    /// What this host sees at `lab.music`: its own directory, or a share (`NetworkLab.share`).
    var music: URL
    private let hostsFile: URL
    private let machineIDFile: URL

    init(lab: NetworkLab, name: String, namespace: String, bridgePort: String, address: String, directory: URL) throws {
        self.lab = lab
        self.name = name
        self.namespace = namespace
        self.bridgePort = bridgePort
        self.address = address
        home = directory.appendingPathComponent("home")
        music = directory.appendingPathComponent("music")
        hostsFile = directory.appendingPathComponent("hosts")
        machineIDFile = directory.appendingPathComponent("machine-id")
        for dir in [home, music] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        try "127.0.0.1 localhost\n\(NetworkLab.serverAddress) \(NetworkLab.serverName)\n".write(to: hostsFile, atomically: true, encoding: .utf8)
        try (UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() + "\n")
            .write(to: machineIDFile, atomically: true, encoding: .utf8)
    }

    /// The argument vector that runs `program arguments` on this host.
    func argv(_ program: String, _ arguments: [String]) -> [String] {
        let script = """
            hostname "$1" && mount --bind "$2" "$3" && mount --bind "$4" /etc/hosts && \
            { [ ! -e /etc/machine-id ] || mount --bind "$5" /etc/machine-id; } && shift 5 && exec "$@"
            """
        return [NetworkLab.ip, "netns", "exec", namespace, NetworkLab.unshare, "--uts", "--mount", "--propagation", "private", "--",
                "/bin/sh", "-c", script, "sh", name, music.path, lab.music.path, hostsFile.path, machineIDFile.path, program] + arguments
    }

    /// The host's environment: its home and nothing of the runner's mlib or libpq settings.
    func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/.config", "MLIB_HOST": "", "MLIB_HOST_ID": "",
                           "MLIB_LIBRARY": "", "PGHOST": "", "PGUSER": "", "PGPASSWORD": "", "PGSSLMODE": "", "PGDATABASE": ""]
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts `program` on this host (stdout and stderr piped unless said otherwise).
    func start(_ program: String, _ arguments: [String], environment extra: [String: String] = [:],
               stdout: SpawnedProcess.Stream = .pipe, stderr: SpawnedProcess.Stream = .pipe) throws -> SpawnedProcess {
        let argv = argv(program, arguments)
        return try SpawnedProcess(argv[0], Array(argv.dropFirst()), environment: environment(extra), stdout: stdout, stderr: stderr)
    }

    /// Runs `program` on this host to its end.
    func run(_ program: String, _ arguments: [String], environment extra: [String: String] = [:]) throws -> ChildProcess.Output {
        let child = try start(program, arguments, environment: extra)
        let (out, err) = child.readToEnd()
        return ChildProcess.Output(status: child.terminationStatus, stdout: out, stderr: String(decoding: err, as: UTF8.self))
    }

    /// The built `mlib` on this host.
    func mlib(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ChildProcess.Output {
        try run(ChildProcess.mlib.path, arguments, environment: extra)
    }

    /// `mlib serve ARGUMENTS` on this host, once it has printed `ports` lines naming its ports (the
    /// Subsonic API's first with `--http`, then MPD's): the process and the ports in that order. Its later
    /// lines stay in the pipe (a few reconnection lines; the process is killed by the lab at the end).
    func serve(_ arguments: [String], ports count: Int, environment extra: [String: String] = [:]) throws -> (SpawnedProcess, [Int]) {
        let process = try start(ChildProcess.mlib.path, ["serve"] + arguments, environment: extra, stdout: .null, stderr: .pipe)
        var text = ""
        var ports: [Int] = []
        let handle = process.standardError!
        while ports.count < count {
            let chunk = handle.availableData
            if chunk.isEmpty { throw TestFailure("mlib serve on \(name) ended: \(text)") }
            text += String(decoding: chunk, as: UTF8.self)
            ports = text.split(separator: "\n").filter { $0.contains(" on ") }.compactMap { line in
                line.lastIndex(of: ":").flatMap { Int(line[line.index(after: $0)...].prefix { $0.isNumber }) }
            }
        }
        return (process, ports)
    }

    /// `Scripts/lab_client.py ARGUMENTS` on this host (py-sonic, raw MPD): its output's lines.
    func client(_ arguments: [String]) throws -> [String] {
        let script = ChildProcess.repo.appendingPathComponent("Tests/NetworkHostsTests/Scripts/lab_client.py").path
        let result = try run(Self.python, [script] + arguments)
        guard result.status == 0 else { throw TestFailure("lab_client.py \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.out.split(separator: "\n").map(String.init)
    }

    /// Puts a copy of the fixture `name` at `path` under this host's music directory.
    @discardableResult
    func put(_ name: String, at path: String) throws -> URL {
        let target = music.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: ChildProcess.repo.appendingPathComponent("Fixtures/\(name)"), to: target)
        return target
    }

    /// The runner's python3 (with py-sonic) by its real path: a pyenv shim would look for pyenv in the
    /// host's own HOME.
    static let python: String = {
        let found = try? ChildProcess.run("python3", ["-c", "import sys; print(sys.executable)"])
        return found.map { $0.out.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
    }()

    /// This host's id, once mlib has made it.
    var id: String? {
        (try? String(contentsOf: home.appendingPathComponent(".config/mlib/host-id"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
