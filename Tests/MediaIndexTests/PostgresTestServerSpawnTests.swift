import Foundation
import Testing
import PostgresTestServer

/// `pg_ctl start` leaves a daemon behind: a descriptor the test process had open when it spawned
/// (another test's pipe to an ffmpeg child, created on another thread without close-on-exec) must not
/// live on in that daemon, or the other test's read of the pipe never sees end of file and hangs
/// (seen: "Analysis in the index" asleep 8 minutes in a parallel run).
@Suite struct PostgresTestServerSpawnTests {
    @Test func aSpawnedDaemonKeepsNoDescriptorOfTheTestProcess() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)   // no O_CLOEXEC, as Foundation's Pipe on Linux
        defer { close(ends[0]) }
        // A daemon that outlives its parent by 3 s, as postgres outlives pg_ctl.
        try PostgresTestServer.run("/bin/sh", ["-c", "sleep 3 </dev/null >/dev/null 2>&1 &"], asServer: false)
        close(ends[1])
        let start = Date()
        var byte: UInt8 = 0
        let count = read(ends[0], &byte, 1)   // end of file at once unless the daemon holds the write end
        #expect(count == 0)
        #expect(Date().timeIntervalSince(start) < 1.5, "the daemon kept the test's pipe open")
    }
}
