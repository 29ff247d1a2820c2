import Foundation
import Testing
import TestSupport

/// Issue 38: "the README's PostgreSQL section, followed by a script on a fresh PostgreSQL 15, works as
/// written". `scripts/readme-postgres-setup.sh` reads the section's commands from README.md and runs them
/// on a fresh server and two hosts, then scans, lists and serves from both; this runs it with the built mlib.
@Suite(.serialized, .needsNetworkLab)
struct ReadmeSetupTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/15/bin/initdb"), "PostgreSQL 15 is not installed"))
    func theREADMEsPostgreSQLSetUpWorksAsWritten() throws {
        let script = ChildProcess.repo.appendingPathComponent("scripts/readme-postgres-setup.sh").path
        let result = try ChildProcess.run(script, [], environment: ["MLIB": ChildProcess.mlib.path])
        #expect(result.status == 0, "status \(result.status)\n\(result.out)\n\(result.stderr)")
    }
}
