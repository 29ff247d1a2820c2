import Foundation

/// Runs child processes for the end-to-end tests (the `mlib` binary, mpc, ffmpeg, tmux scripts): one
/// runner for every test target, over `SpawnedProcess`.
public enum ChildProcess {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        public var out: String { String(decoding: stdout, as: UTF8.self) }

        public init(status: Int32, stdout: Data, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// Runs `program` (a path, or a name looked up on PATH) to its end with standard input from
    /// /dev/null; `environment` entries are added to the test's own. Through `SpawnedProcess`
    /// (posix_spawn), not Foundation's `Process`.
    public static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:],
                           cwd: URL? = nil) throws -> Output {
        let child = try SpawnedProcess(program, arguments, environment: environment, cwd: cwd, stdout: .pipe, stderr: .pipe)
        let (out, err) = child.readToEnd()
        return Output(status: child.terminationStatus, stdout: out, stderr: String(decoding: err, as: UTF8.self))
    }

    /// The repository's top directory.
    public static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `mlib` executable built beside the test bundle by `swift test`.
    public static var mlib: URL {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("mlib")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return repo.appendingPathComponent(".build/debug/mlib")
    }

    /// True when `name` is an executable on PATH.
    public static func exists(_ name: String) -> Bool {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return dirs.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }
}
