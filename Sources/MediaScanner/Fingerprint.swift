import MediaIndex
import MediaModel
import MediaProbe

/// A cheap content identity for move detection: the size and a hash of the first and last 16 KiB.
/// Two files with equal fingerprints are taken to be one file that moved; tags usually sit at one end and
/// audio frames differ early, so a retag or a re-encode changes it.
///
/// Since reader version 2 each end is hashed once: the end hashes (`ends`) are those of the two windows,
/// and the fingerprint of a file of two windows or more is the size and those two hashes combined (reader
/// version 1 hashed the same 2 × 16 KiB twice, through a serial multiply chain, after copying them four
/// times: ~17 µs per file). Stored values changed with it; a file moved before the first scan of version 2
/// is still found by its inode (a rename) or by its tags (`Moves`), and that scan stores the new values.
enum Fingerprint {
    static let window = 16384   // 64 KiB cost ~5% of a full scan in reads and hashing, and told no more files apart

    /// The fingerprint and the end hashes, from the file's shared head and tail windows (MediaProbe has
    /// usually read them already), without copying them.
    static func identity(_ file: MediaFile) -> (fingerprint: Int64, ends: EndHashes) {
        let size = file.facts.size
        // A file shorter than two windows has 2 KiB ends (so that they never overlap, and a retag that
        // changes the size by a few bytes still leaves one end as it was); its fingerprint hashes it whole.
        let count = size >= 2 * Int64(window) ? window : Int(min(2048, size / 2))
        let head = file.head
        let tailWindow = size <= Int64(head.count) ? head : file.tail
        let (headHash, tailHash, whole) = head.withUnsafeBytes { h in
            tailWindow.withUnsafeBytes { t in
                (LaneHash.hash(UnsafeRawBufferPointer(rebasing: h[0..<count]), seed: endSeed),
                 LaneHash.hash(UnsafeRawBufferPointer(rebasing: t[(t.count - count)...]), seed: endSeed),
                 size < 2 * Int64(window) ? LaneHash.hash(h, seed: UInt64(bitPattern: size)) : nil)
            }
        }
        let fingerprint = whole ?? LaneHash.combine(UInt64(bitPattern: size), headHash, tailHash)
        return (Int64(bitPattern: fingerprint),
                EndHashes(head: Int64(bitPattern: headHash), tail: Int64(bitPattern: tailHash), payload: payloadHash(file)))
    }

    /// The hash of the first 16 KiB of the audio payload (`AudioPayload`: after the head's tags, from its
    /// first non-zero byte), or nil: the evidence for a retag that rewrote both ends (issue 24 case 6). Its
    /// own seed, so that it never equals an end hash of the same bytes (an untagged WAV's head).
    static func payloadHash(_ file: MediaFile) -> Int64? {
        guard let bytes = AudioPayload.leadingBytes(of: file) else { return nil }
        return Int64(bitPattern: bytes.withUnsafeBytes { LaneHash.hash($0, seed: payloadSeed) })
    }

    static func of(_ file: MediaFile) -> Int64 { identity(file).fingerprint }

    static func of(_ path: MediaPath) -> Int64? {
        (try? MediaFile(path)).map(of)
    }

    /// The first and the last `window` bytes hashed apart (not seeded with the size): a retag rewrites one
    /// end and leaves the other, so either one equal, with the duration, says "the same audio" (`Moves`).
    static func ends(_ file: MediaFile) -> EndHashes { identity(file).ends }

    private static let endSeed: UInt64 = 0x6D6C_6962
    private static let payloadSeed: UInt64 = 0x6D6C_6962_7061_796C
}

/// A small fast 64-bit hash over 8-byte words: four independent multiply-xorshift lanes (so the multiplies
/// overlap instead of waiting on each other), folded and mixed at the end. Stable across runs and builds,
/// unlike Swift's `Hasher`, because it is stored in the index: changing it changes stored identities (bump
/// `MediaProbe.readerVersion`; see `Fingerprint`).
enum LaneHash {
    static let k1: UInt64 = 0x9E37_79B9_7F4A_7C15
    static let k2: UInt64 = 0xBF58_476D_1CE4_E5B9
    static let k3: UInt64 = 0x94D0_49BB_1331_11EB

    @inline(__always) static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let x = (lane ^ word) &* k2
        return x ^ (x >> 31)
    }

    @inline(__always) static func rotate(_ x: UInt64, _ n: UInt64) -> UInt64 { x << n | x >> (64 - n) }

    static func finish(_ h: UInt64) -> UInt64 {
        var h = h
        h ^= h >> 33; h = h &* k3
        h ^= h >> 29; h = h &* k2
        return h ^ h >> 32
    }

    /// Lanes start at (seed + i) × k1; each 32-byte block feeds words 0–3 to lanes 0–3; the remaining whole
    /// words feed lanes 0, 1, 2 in turn; the last bytes (fewer than 8) and the length form one word,
    /// (length << 8·n | bytes in order), fed to lane 3. The lanes are folded with rotations and mixed.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
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
    static func combine(_ size: UInt64, _ head: UInt64, _ tail: UInt64) -> UInt64 {
        finish(round(round(size &* k1, head), rotate(tail, 29)))
    }
}
