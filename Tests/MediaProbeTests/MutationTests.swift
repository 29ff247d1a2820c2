import Foundation
import MediaModel
@testable import MediaProbe
import Testing

/// A small, seeded share of Benchmarks/fuzz-probe.sh (which runs hundreds of mutations per fixture through
/// `mlib info`): damaged copies of every fixture read in this process, both probe paths. A crash stops the
/// test run; a hang shows as a read slower than a few seconds. Every read either succeeds (perhaps
/// partial) or fails with a ProbeError, and the two paths agree on which and on the error code.
struct MutationTests {
    static let perFixture = 12

    /// The mutation `n` of `bytes`: flipped bytes, a cut, a zeroed run, inserted junk, or a duplicated run,
    /// placed mostly in the first KiB (headers and tags) where readers are most fragile.
    static func mutate(_ bytes: [UInt8], _ g: inout SeededGenerator) -> [UInt8] {
        var b = bytes
        guard b.count > 16 else { return b }
        func spot() -> Int { Bool.random(using: &g) ? Int.random(in: 0..<min(b.count, 1024), using: &g) : Int.random(in: 0..<b.count, using: &g) }
        switch Int.random(in: 0..<5, using: &g) {
        case 0: for _ in 0..<Int.random(in: 1...8, using: &g) { b[spot()] ^= UInt8.random(in: 1...255, using: &g) }
        case 1: b = Array(b.prefix(spot()))
        case 2: let at = spot(); for i in at..<min(b.count, at + Int.random(in: 1...256, using: &g)) { b[i] = 0 }
        case 3: b.insert(contentsOf: (0..<Int.random(in: 1...64, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }, at: spot())
        default: let at = spot(); let run = b[at..<min(b.count, at + Int.random(in: 1...512, using: &g))]; b.insert(contentsOf: run, at: spot())
        }
        return b
    }

    /// Every fixture cut to a few bytes: headers end in the middle, tags run past the end (fuzz-probe.sh
    /// found a 28-byte MP3 that sent the trailing-tag check to a negative offset).
    @Test(arguments: FixtureTests.expectations.filter { $0.spec["error"] as? String == nil })
    func tinyPrefixesNeverCrash(_ e: FixtureTests.Expectation) throws {
        let source = try [UInt8](Data(contentsOf: FixtureTests.fixtures.appendingPathComponent(e.file)))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-prefixes-\(getpid())-" + e.file.replacingOccurrences(of: "/", with: "-"))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for n in [1, 4, 11, 12, 28, 31, 33, 64, 127, 129, 300] where n < source.count {
            let url = dir.appendingPathComponent("\(n)-" + (e.file as NSString).lastPathComponent)
            try Data(source.prefix(n)).write(to: url)
            let path = MediaPath(url.path)
            _ = try? MediaProbe.probe(path)
            _ = try? MediaProbe.probe(path, detail: .library)
        }
    }

    /// fuzz-probe.sh: an Ogg page whose segment count points past the first 64 bytes crashed the sniffer
    /// that picks TagLib's class for a file FFmpeg refused.
    @Test func oggSegmentTableBeyondTheSniffedBytes() throws {
        var bytes = Array("OggS".utf8) + [UInt8](repeating: 0, count: 22) + [200] + [UInt8](repeating: 7, count: 60)
        bytes[5] = 2
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-ogg-segments-\(getpid()).ogg")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: ProbeError.self) { try MediaProbe.probe(MediaPath(url.path)) }
    }

    @Test(arguments: FixtureTests.expectations.filter { $0.spec["error"] as? String == nil })
    func mutatedFixturesNeverCrashOrHang(_ e: FixtureTests.Expectation) throws {
        let source = try [UInt8](Data(contentsOf: FixtureTests.fixtures.appendingPathComponent(e.file)))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-mutations-\(getpid())-" + e.file.replacingOccurrences(of: "/", with: "-"))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var g = SeededGenerator(seed: UInt64(truncatingIfNeeded: e.file.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
        for n in 0..<Self.perFixture {
            let url = dir.appendingPathComponent("\(n)-" + (e.file as NSString).lastPathComponent)
            try Data(Self.mutate(source, &g)).write(to: url)
            let path = MediaPath(url.path)
            let start = Date()
            let full: Result<ProbeResult, ProbeError> = Result { () throws(ProbeError) in try MediaProbe.probe(path) }
            let lean: Result<ProbeResult, ProbeError> = Result { () throws(ProbeError) in try MediaProbe.probe(path, detail: .library) }
            #expect(Date().timeIntervalSince(start) < 5, "\(e.file) mutation \(n) took too long")
            switch (full, lean) {
            case (.success, .success):
                // Both read it. Whether both call it partial is not asserted here: a cut CBR MP3 without a
                // Xing header, which FFmpeg refuses, looks whole to the native reader (Benchmarks/fuzz-probe.sh
                // counts such cases; the fixtures and odd files all agree, ScanInfoAgreementTests).
                break
            case (.failure(let a), .failure(let b)):
                #expect(a.code == b.code, "\(e.file) mutation \(n)")
            default:
                Issue.record("\(e.file) mutation \(n): info \(full) vs scan \(lean)")
            }
        }
    }
}
