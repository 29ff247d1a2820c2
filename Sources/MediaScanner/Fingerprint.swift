import MediaIndex
import MediaModel
import MediaProbe

/// A cheap content identity for move detection: the size and a hash of the first and last 16 KiB.
/// Two files with equal fingerprints are taken to be one file that moved; tags usually sit at one end and
/// audio frames differ early, so a retag or a re-encode changes it.
enum Fingerprint {
    static let window = 16384   // 64 KiB cost ~5% of a full scan in reads and hashing, and told no more files apart

    /// From the file's shared head and tail windows (MediaProbe has usually read them already).
    static func of(_ file: MediaFile) -> Int64 {
        let size = file.facts.size
        var hash = Hasher64(seed: UInt64(bitPattern: size))
        var offsets: [Int64] = [0]
        if size > Int64(window) { offsets.append(max(Int64(window), size - Int64(window))) }
        for offset in offsets {
            file.bytes(at: offset, count: window).withUnsafeBytes { hash.combine($0) }
        }
        return Int64(bitPattern: hash.value)
    }

    static func of(_ path: MediaPath) -> Int64? {
        (try? MediaFile(path)).map(of)
    }

    /// The first and the last `window` bytes hashed apart (not seeded with the size): a retag rewrites one
    /// end and leaves the other, so either one equal, with the duration, says "the same audio" (`Moves`).
    /// A file shorter than two windows has 2 KiB ends (so that they never overlap, and a retag that changes
    /// the size by a few bytes still leaves one end as it was).
    static func ends(_ file: MediaFile) -> EndHashes {
        let size = file.facts.size
        let count = size >= 2 * Int64(window) ? window : Int(min(2048, size / 2))
        func hash(at offset: Int64) -> Int64 {
            var hash = Hasher64(seed: 0x6D6C_6962)
            file.bytes(at: offset, count: count).withUnsafeBytes { hash.combine($0) }
            return Int64(bitPattern: hash.value)
        }
        return EndHashes(head: hash(at: 0), tail: hash(at: size - Int64(count)))
    }
}

/// A small fast 64-bit hash over 8-byte words (multiply-xorshift mixing); stable across runs and builds,
/// unlike Swift's `Hasher`, because it is stored in the index.
struct Hasher64 {
    private(set) var value: UInt64
    init(seed: UInt64) { value = seed ^ 0x9E37_79B9_7F4A_7C15 }

    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        let words = bytes.count / 8
        for i in 0..<words { mix(bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) }
        var tail: UInt64 = UInt64(bytes.count)
        for i in (words * 8)..<bytes.count { tail = tail << 8 | UInt64(bytes[i]) }
        mix(tail)
    }

    private mutating func mix(_ word: UInt64) {
        var x = (value ^ word) &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 31
        value = x &* 0x94D0_49BB_1331_11EB ^ (x >> 29)
    }
}
