import Foundation
import Testing

/// Runs the built `mlib` executable (built beside the test bundle by `swift test`).
enum CLI {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = repo.appendingPathComponent("Fixtures")

    static var binary: URL {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("mlib")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return repo.appendingPathComponent(".build/debug/mlib")
    }

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var out: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// `unprivileged`: as nobody when the tests run as root (CI), for what root's rights would hide
    /// (a folder it may not enter, a file it may not write).
    static func run(_ args: [String], environment: [String: String] = [:], cwd: URL? = nil, unprivileged: Bool = false) throws -> Result {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        if unprivileged && getuid() == 0 {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + args
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        if let cwd { p.currentDirectoryURL = cwd }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Read both pipes concurrently so a full stderr pipe cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return Result(status: p.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    static func fixtureFiles() throws -> [String] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("expected.json"))
        let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["files"] as! [String: Any]).keys.sorted().map { fixtures.appendingPathComponent($0).path }
    }
}
