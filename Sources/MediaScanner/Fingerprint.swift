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
