import Foundation
import Testing

/// The fast subset of Benchmarks/mpd-conformance.sh: the same raw command sequences (connection,
/// database, queue, options, stored playlists, idle) against Debian's mpd and `mlib serve` over one
/// music folder, compared field by field; any difference not listed as known (with its reason) fails.
@Suite(.enabled(if: toolExists("mpd") && toolExists("mpc") && toolExists("ffmpeg") && toolExists("python3"),
                "mpd, mpc, ffmpeg or python3 missing (scripts/install-deps.sh)"))
struct ConformanceTests {
    @Test func answersMatchRealMPD() throws {
        let result = try run("/bin/bash", [Paths.repo.appendingPathComponent("Benchmarks/mpd-conformance.sh").path,
                                           "--quick", Paths.mlib.path])
        let unexpected = result.out.split(separator: "\n").filter { $0.hasPrefix("DIFFERS") }
        #expect(result.status == 0, "\(unexpected.prefix(20).joined(separator: "\n"))\n\(result.err)")
        #expect(result.out.contains("0 unexpected differences"))
    }
}
