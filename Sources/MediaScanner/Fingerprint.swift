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
