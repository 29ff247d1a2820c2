import Foundation
import Testing
@testable import TagWriting

/// `PaddingRefit.patches` finds where a rendered file differs from the one on disk, and an in-place write
/// writes exactly those bytes: the ranges must be every differing byte, merged where they touch, whatever
/// their place (the first bytes, across a 64 KiB chunk's edge, the last byte, one byte alone).
@Suite struct PatchRangesTests {
    /// The reference: every differing byte, in maximal runs.
    private func naive(_ old: [UInt8], _ new: [UInt8]) -> [(offset: Int64, bytes: [UInt8])] {
        var out: [(offset: Int64, bytes: [UInt8])] = []
        var i = 0
        while i < new.count {
            guard old[i] != new[i] else { i += 1; continue }
            var j = i
            while j < new.count && old[j] != new[j] { j += 1 }
            out.append((Int64(i), Array(new[i..<j])))
            i = j
        }
        return out
    }

    @Test func everyDifferingByteInMaximalRuns() throws {
        var generator = SystemRandomNumberGenerator()
        let size = 200_000
        let old = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let edits: [[Range<Int>]] = [
            [0..<1], [0..<9], [65_535..<65_537], [65_530..<65_536, 65_536..<65_540], [size - 1..<size],
            [3..<4, 5..<6, 7..<8, 100..<164, 131_071..<131_080], [1_000..<1_001, 1_008..<1_009, 1_016..<1_025], [],
        ]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-patches-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(old).write(to: url)
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        for runs in edits {
            var new = old
            for run in runs { for k in run { new[k] = ~old[k] } }
            let found = try #require(PaddingRefit.patches(new, against: fd))
            let expected = naive(old, new)
            #expect(found.map(\.offset) == expected.map(\.offset), "\(runs)")
            #expect(found.map(\.bytes) == expected.map(\.bytes), "\(runs)")
        }
    }
}
