import AudioAnalysis
import Foundation
import Testing

/// The duplicate finder at library scale, on synthetic fingerprints (950 values each, as Chromaprint gives
/// for 120 s): 90% distinct recordings, 10% copies of them with 5% of their bits flipped and a shift of up
/// to 2 s. A benchmark, not a check of the build: it runs only with MLIB_DUPES_BENCH=N (N fingerprints),
/// and prints the time, the peak memory and the copies found.
@Suite("Duplicate finder at scale")
struct DuplicateScaleBench {
    static var count: Int? { ProcessInfo.processInfo.environment["MLIB_DUPES_BENCH"].flatMap(Int.init) }

    @Test(.enabled(if: count != nil)) func hundredThousandFingerprints() throws {
        let count = Self.count!
        var generator = SystemRandomNumberGenerator()
        var fingerprints: [Int64: [UInt32]] = [:]
        let originals = count * 9 / 10
        for id in 0..<originals {
            fingerprints[Int64(id)] = (0..<950).map { _ in UInt32.random(in: .min ... .max, using: &generator) }
        }
        var copyOf: [Int64: Int64] = [:]
        for id in originals..<count {
            let source = Int64.random(in: 0..<Int64(originals), using: &generator)
            let shift = Int.random(in: 0...16, using: &generator)
            copyOf[Int64(id)] = source
            fingerprints[Int64(id)] = fingerprints[source]!.dropFirst(shift).map { value in
                var v = value
                for bit in 0..<32 where Int.random(in: 0..<20, using: &generator) == 0 { v ^= 1 << UInt32(bit) }
                return v
            }
        }
        let start = Date()
        let finder = DuplicateFinder()
        let matches = finder.matches(fingerprints)
        let clusters = finder.clusters(matches)
        let seconds = Date().timeIntervalSince(start)
        // A copy matches its original, and two copies of one original match each other.
        let origin = { (id: Int64) in copyOf[id] ?? id }
        let found = matches.filter { copyOf[$0.b] == $0.a || copyOf[$0.a] == $0.b }.count
        let wrong = matches.filter { origin($0.a) != origin($0.b) }.count
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM") } ?? "VmHWM: ?"
        print("dupes bench: \(count) fingerprints, \(String(format: "%.2f", seconds)) s, \(clusters.count) clusters, "
              + "\(found) of \(count - originals) copies found, \(matches.count - found - wrong) pairs of copies, \(wrong) false; \(peak)")
        #expect(found >= (count - originals) * 95 / 100)
        #expect(wrong == 0)
    }
}
