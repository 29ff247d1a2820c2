import Foundation
import Testing

/// `mlib serve` stops cleanly (exit 0) on a SIGTERM sent the moment it says it serves: the signal handlers
/// are in place before the "serving" line. (When they were installed only where the server waits, such a
/// SIGTERM either killed the process as a signal, or — between `SIG_IGN` and the handler's start — was
/// ignored for good and the server never stopped: a fresh-clone CI run hung on it once.)
@Suite(.serialized)
struct StopSignalTests {
    @Test func aSIGTERMRightAfterTheServingLineStopsTheServerCleanly() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        for round in 1...15 {
            let server = try ServeProcess(library: library.library)
            let status = server.stop()
            #expect(server.process.terminationReason == .exit && status == 0, "round \(round): \(server.process.terminationReason) \(status)")
        }
    }
}
