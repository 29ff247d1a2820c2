import MediaModel

/// A cheap content identity for move detection: the size and a hash of the first and last 16 KiB, and each
/// end's hash apart. Two files with equal fingerprints are taken to be one file that moved; tags usually sit
/// at one end and audio frames differ early, so a retag or a re-encode changes it. The scanner stores it
/// (`Fingerprint`); here, beside the reader, so that a reader that has just read a file (a tag write's check)
/// can hand it to an index refresh with the probe (`ProbedFile`), which then does not open the file again.
///
/// Since reader version 2 each end is hashed once: the end hashes are those of the two windows, and the
/// fingerprint of a file of two windows or more is the size and those two hashes combined (reader version 1
/// hashed the same 2 × 16 KiB twice, through a serial multiply chain, after copying them four times: ~17 µs
/// per file). Stored values changed with it; a file moved before the first scan of version 2 is still found
/// by its inode (a rename) or by its tags (`Moves`), and that scan stores the new values.
public struct ContentIdentity: Sendable, Hashable {
    public var fingerprint: Int64
    /// The first and the last `window` bytes hashed apart (not seeded with the size): a retag rewrites one
    /// end and leaves the other, so either one equal, with the duration, says "the same audio".
    public var head: Int64
    public var tail: Int64
    /// The hash of the first 16 KiB of the audio payload (`AudioPayload`: after the head's tags, from its
    /// first non-zero byte), or nil: the evidence for a retag that rewrote both ends (issue 24 case 6).
    public var payload: Int64?

    public static let window = 16384   // 64 KiB cost ~5% of a full scan in reads and hashing, and told no more files apart

    /// From the file's shared head and tail windows (the probe has usually read them already), without
    /// copying them.
    public init(_ file: MediaFile) {
        self.init(file, leadingBytes: AudioPayload.leadingBytes(of: file))
    }

    /// The same, with the file's `AudioPayload.leadingBytes` the caller has already read.
    public init(_ file: MediaFile, leadingBytes: [UInt8]?) {
        let size = file.facts.size, window = Self.window
        // A file shorter than two windows has 2 KiB ends (so that they never overlap, and a retag that
        // changes the size by a few bytes still leaves one end as it was); its fingerprint hashes it whole.
        let count = size >= 2 * Int64(window) ? window : Int(min(2048, size / 2))
        let headWindow = file.head
        let tailWindow = size <= Int64(headWindow.count) ? headWindow : file.tail
        let (headHash, tailHash, whole) = headWindow.withUnsafeBytes { h in
            tailWindow.withUnsafeBytes { t in
                (LaneHash.hash(UnsafeRawBufferPointer(rebasing: h[0..<count]), seed: Self.endSeed),
                 LaneHash.hash(UnsafeRawBufferPointer(rebasing: t[(t.count - count)...]), seed: Self.endSeed),
                 size < 2 * Int64(window) ? LaneHash.hash(h, seed: UInt64(bitPattern: size)) : nil)
            }
        }
        fingerprint = Int64(bitPattern: whole ?? LaneHash.combine(UInt64(bitPattern: size), headHash, tailHash))
        head = Int64(bitPattern: headHash)
        tail = Int64(bitPattern: tailHash)
        payload = Self.payloadHash(leadingBytes)
    }

    /// The hash of a payload's leading bytes. Its own seed, so that it never equals an end hash of the same
    /// bytes (an untagged WAV's head).
    public static func payloadHash(_ leadingBytes: [UInt8]?) -> Int64? {
        leadingBytes.map { bytes in Int64(bitPattern: bytes.withUnsafeBytes { LaneHash.hash($0, seed: payloadSeed) }) }
    }

    private static let endSeed: UInt64 = 0x6D6C_6962
    private static let payloadSeed: UInt64 = 0x6D6C_6962_7061_796C
}
