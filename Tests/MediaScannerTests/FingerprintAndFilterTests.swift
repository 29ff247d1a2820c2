import Foundation
import MediaIndex
import MediaModel
import MediaProbe
@testable import MediaScanner
import Testing

struct FingerprintTests {
    func write(_ bytes: [UInt8], _ box: Sandbox, _ name: String) throws -> MediaPath {
        let url = box.url.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return MediaPath(url.path)
    }

    @Test func sameBytesSameFingerprintAndAnyEndChangeShows() throws {
        let box = try Sandbox()
        let big = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let a = try write(big, box, "a"), b = try write(big, box, "b")
        var tail = big; tail[tail.count - 1] ^= 1
        var head = big; head[10] ^= 1
        var middle = big; middle[100_000] ^= 1            // outside both windows: by design not seen
        let fa = try #require(Fingerprint.of(a))
        #expect(Fingerprint.of(b) == fa)
        #expect(Fingerprint.of(try write(tail, box, "t")) != fa)
        #expect(Fingerprint.of(try write(head, box, "h")) != fa)
        #expect(Fingerprint.of(try write(middle, box, "m")) == fa)
        #expect(Fingerprint.of(MediaPath(box.path + "/missing")) == nil)
        // Stored in libraries: the value must not change within a reader version, or moves would lose their
        // identity (reader version 2 changed it once; see Fingerprint and UpgradeTests).
        #expect(fa == -5776882553368779862)
        let mid = try write(Array(big.prefix(20_000)), box, "mid")          // windows overlap: 16 KiB < size < 32 KiB
        #expect(Fingerprint.of(mid) == 3724143313098121365)
        let tiny = Fingerprint.of(try write([1, 2, 3], box, "tiny"))
        #expect(tiny == -6370545920566821447)
        // Small files are hashed whole; the size is part of the identity: trailing zeros still count.
        #expect(Fingerprint.of(try write([1, 2, 3, 0], box, "s")) != tiny)
    }

    @Test func theHashIsStableAcrossRunsBecauseItIsStored() {
        let value = Array("mlib fingerprint".utf8).withUnsafeBytes { LaneHash.hash($0, seed: 42) }
        #expect(value == Self.expected)
    }
    /// Computed independently (Python, from LaneHash's documented definition).
    static let expected: UInt64 = 0x11b4_038d_4fac_a366

    @Test func eachEndIsHashedOnceForBoth() throws {
        let box = try Sandbox()
        let big = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let file = try MediaFile(try write(big, box, "e"))
        let identity = Fingerprint.identity(file)
        let head = big.withUnsafeBytes { LaneHash.hash(UnsafeRawBufferPointer(rebasing: $0[0..<16384]), seed: 0x6D6C_6962) }
        let tail = big.withUnsafeBytes { LaneHash.hash(UnsafeRawBufferPointer(rebasing: $0[(100_000 - 16384)...]), seed: 0x6D6C_6962) }
        #expect(identity.ends == EndHashes(head: Int64(bitPattern: head), tail: Int64(bitPattern: tail)))
        #expect(identity.fingerprint == Int64(bitPattern: LaneHash.combine(100_000, head, tail)))
    }
}

struct MediaFileFilterTests {
    @Test func namesAreJudgedByExtensionCaseInsensitively() {
        #expect(MediaFileFilter.verdict(forName: Array("01 Song.MP3".utf8)) == .media)
        #expect(MediaFileFilter.verdict(forName: Array("a.flac".utf8)) == .media)
        #expect(MediaFileFilter.verdict(forName: Array("cover.jpg".utf8)) == .skip)
        #expect(MediaFileFilter.verdict(forName: Array("notes.txt".utf8)) == .skip)
        #expect(MediaFileFilter.verdict(forName: Array("song.mp3.part.verylongext".utf8)) == .skip)
        #expect(MediaFileFilter.verdict(forName: Array("README".utf8)) == .sniff)
        #expect(MediaFileFilter.verdict(forName: [0xFF, 0xFE] + Array(".ogg".utf8)) == .media)
    }
}
