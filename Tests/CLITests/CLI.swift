import Foundation
import TestSupport
import Testing

/// Runs the built `mlib` executable (built beside the test bundle by `swift test`).
enum CLI {
    static let repo = ChildProcess.repo
    static let fixtures = repo.appendingPathComponent("Fixtures")
    static var binary: URL { ChildProcess.mlib }
    typealias Result = ChildProcess.Output

    /// Runs the built `mlib` (`ChildProcess`, shared with the MPD server tests). `unprivileged`: as nobody
    /// when the tests run as root (CI), for what root's rights would hide (a folder it may not enter, a file
    /// it may not write).
    static func run(_ args: [String], environment: [String: String] = [:], cwd: URL? = nil, unprivileged: Bool = false) throws -> Result {
        if unprivileged && getuid() == 0 {
            return try ChildProcess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + args,
                                        environment: environment, cwd: cwd)
        }
        return try ChildProcess.run(binary.path, args, environment: environment, cwd: cwd)
    }

    static func fixtureFiles() throws -> [String] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("expected.json"))
        let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["files"] as! [String: Any]).keys.sorted().map { fixtures.appendingPathComponent($0).path }
    }
}
