/// A small fast 64-bit hash over 8-byte words: four independent multiply-xorshift lanes (so the multiplies
/// overlap instead of waiting on each other), folded and mixed at the end. Stable across runs and builds,
/// unlike Swift's `Hasher`, because it is stored in the index (MediaScanner's `Fingerprint`): changing it changes
/// stored identities (bump `MediaProbe.readerVersion`). Also the tag writer's hash of the audio it must not
/// change (`WriteCheck`), where SipHash was a tenth of a rewrite's time.
public enum LaneHash {
    static let k1: UInt64 = 0x9E37_79B9_7F4A_7C15
    static let k2: UInt64 = 0xBF58_476D_1CE4_E5B9
    static let k3: UInt64 = 0x94D0_49BB_1331_11EB

    @inline(__always) static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let x = (lane ^ word) &* k2
        return x ^ (x >> 31)
    }

    @inline(__always) static func rotate(_ x: UInt64, _ n: UInt64) -> UInt64 { x << n | x >> (64 - n) }

    public static func finish(_ h: UInt64) -> UInt64 {
        var h = h
        h ^= h >> 33; h = h &* k3
        h ^= h >> 29; h = h &* k2
        return h ^ h >> 32
    }

    /// Lanes start at (seed + i) × k1; each 32-byte block feeds words 0–3 to lanes 0–3; the remaining whole
    /// words feed lanes 0, 1, 2 in turn; the last bytes (fewer than 8) and the length form one word,
    /// (length << 8·n | bytes in order), fed to lane 3. The lanes are folded with rotations and mixed.
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var a = seed &* k1, b = (seed &+ 1) &* k1, c = (seed &+ 2) &* k1, d = (seed &+ 3) &* k1
        let blocks = bytes.count / 32
        for i in 0..<blocks {
            let at = i * 32
            a = round(a, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
            b = round(b, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)))
            c = round(c, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self)))
            d = round(d, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 24, as: UInt64.self)))
        }
        var at = blocks * 32
        var lane = 0
        while at + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            switch lane {
            case 0: a = round(a, word)
            case 1: b = round(b, word)
            default: c = round(c, word)
            }
            lane += 1
            at += 8
        }
        var last = UInt64(bytes.count)
        while at < bytes.count { last = last << 8 | UInt64(bytes[at]); at += 1 }
        d = round(d, last)
        return finish(a ^ rotate(b, 17) ^ rotate(c, 31) ^ rotate(d, 47))
    }

    /// The fingerprint of a file of two windows or more: its size and its end hashes.
    public static func combine(_ size: UInt64, _ head: UInt64, _ tail: UInt64) -> UInt64 {
        finish(round(round(size &* k1, head), rotate(tail, 29)))
    }
}
