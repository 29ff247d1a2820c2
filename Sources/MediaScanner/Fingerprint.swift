#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// A cheap content identity for move detection: the size and a hash of the first and last 16 KiB.
/// Two files with equal fingerprints are taken to be one file that moved; tags usually sit at one end and
/// audio frames differ early, so a retag or a re-encode changes it.
enum Fingerprint {
    static let window = 16384   // 64 KiB cost ~5% of a full scan in reads and hashing, and told no more files apart

    static func of(_ path: MediaPath, size: Int64) -> Int64? {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var hash = Hasher64(seed: UInt64(bitPattern: size))
        // Uninitialised: every byte hashed is one pread just wrote.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: window, alignment: 8)
        defer { buffer.deallocate() }
        var offsets: [Int64] = [0]
        if size > Int64(window) { offsets.append(max(Int64(window), size - Int64(window))) }
        for offset in offsets {
            let count = pread(fd, buffer.baseAddress, window, off_t(offset))
            guard count >= 0 else { return nil }
            hash.combine(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return Int64(bitPattern: hash.value)
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
