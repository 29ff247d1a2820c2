import Foundation
import TestSupport
import Testing

/// Runs the built `mlib` executable (built beside the test bundle by `swift test`).
enum CLI {
    static let repo = ChildProcess.repo
    static let fixtures = repo.appendingPathComponent("Fixtures")
    static var binary: URL { ChildProcess.mlib }
    typealias Result = ChildProcess.Output

    /// Runs the built `mlib` (`ChildProcess`, shared with the MPD server tests).
    static func run(_ args: [String], environment: [String: String] = [:], cwd: URL? = nil) throws -> Result {
        try ChildProcess.run(binary.path, args, environment: environment, cwd: cwd)
    }

    static func fixtureFiles() throws -> [String] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("expected.json"))
        let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["files"] as! [String: Any]).keys.sorted().map { fixtures.appendingPathComponent($0).path }
    }
}
