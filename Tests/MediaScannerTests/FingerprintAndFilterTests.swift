import Foundation
import MediaModel
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
        // Stored in libraries: the value must not change between versions, or moves across an upgrade
        // would lose their identity.
        #expect(fa == -823596575065385355)
        let mid = try write(Array(big.prefix(20_000)), box, "mid")          // windows overlap: 16 KiB < size < 32 KiB
        #expect(Fingerprint.of(mid) == 5770834474516055452)
        let tiny = Fingerprint.of(try write([1, 2, 3], box, "tiny"))
        #expect(tiny == 1049744221068749341)
        // Small files are hashed whole; the size is part of the identity: trailing zeros still count.
        #expect(Fingerprint.of(try write([1, 2, 3, 0], box, "s")) != tiny)
    }

    @Test func theHashIsStableAcrossRunsBecauseItIsStored() {
        var hasher = Hasher64(seed: 42)
        Array("mlib fingerprint".utf8).withUnsafeBytes { hasher.combine($0) }
        #expect(hasher.value == Self.expected)
    }
    /// Computed independently (Python) from the algorithm's definition.
    static let expected: UInt64 = 0x6d19_5aee_1ff0_114c
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
