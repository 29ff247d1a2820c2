import Foundation

/// Runs child processes for the end-to-end tests (the `mlib` binary, mpc, ffmpeg, tmux scripts): one
/// runner, shared by the CLI and MPD server tests.
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
    /// /dev/null; `environment` entries are added to the test's own.
    public static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:],
                           cwd: URL? = nil) throws -> Output {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        p.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let cwd { p.currentDirectoryURL = cwd }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Read both pipes at once so that a full stderr pipe cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return Output(status: p.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
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
