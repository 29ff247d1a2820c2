#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// One media file, opened once, read-only, for everything that reads it itself: the format sniffer, TagLib,
/// the FLAC tail check and the scanner's fingerprint. Its first and last 64 KiB are read once and shared;
/// for most music files that is the whole file in one or two reads. (Each of them opening the file on
/// its own cost four opens and a dozen reads per file.) FFmpeg, when it is needed, opens the file itself.
///
/// Belongs to one task: the windows are filled on first use.
public final class MediaFile {
    public let path: MediaPath
    public let facts: FileFacts
    let descriptor: Int32

    static let window = 64 * 1024

    /// Opens `path` if it is a regular file (checked before opening: opening a device can have effects).
    public convenience init(_ path: MediaPath) throws(ProbeError) {
        try self.init(path, statted: try FileFacts.read(path))
    }

    /// Opens `path`, which a stat made just before found to be a regular file with `facts` (a scan's walk
    /// stats every file it lists): one stat per file. Stat'ing it again by path cost a second path walk per
    /// file (23,177 newfstatat for a 10,004-file first scan; issue 50).
    public init(_ path: MediaPath, statted facts: FileFacts) throws(ProbeError) {
        self.path = path
        self.facts = facts
        // O_NONBLOCK: should the path have become a FIFO since the stat, reading it fails instead of waiting.
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw FileFacts.error(errno, path) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// The first min(size, 64 KiB) bytes.
    public private(set) lazy var head: [UInt8] = read(Self.window, at: 0)

    /// The last min(size, 64 KiB) bytes, starting at `tailOffset`.
    public private(set) lazy var tail: [UInt8] = facts.size <= Int64(Self.window) ? head : read(Self.window, at: tailOffset)
    public var tailOffset: Int64 { max(0, facts.size - Int64(Self.window)) }

    /// `count` bytes at `offset`, fewer at the end of the file or on a read error; from the shared windows
    /// when they hold the range.
    /// A negative offset reads nothing (a reader computing "32 bytes before the end" of a 28-byte file).
    public func bytes(at offset: Int64, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0 else { return [] }
        let count = max(0, min(Int64(count), facts.size - offset))
        let end = offset + count
        if end <= Int64(head.count) { return Array(head[Int(offset)..<Int(end)]) }
        if offset >= tailOffset, facts.size > Int64(Self.window) {
            let from = Int(offset - tailOffset)
            return from < tail.count ? Array(tail[from..<min(tail.count, from + Int(count))]) : []
        }
        if let recent, offset >= recent.offset, end <= recent.offset + Int64(recent.bytes.count) {
            let from = Int(offset - recent.offset)
            return Array(recent.bytes[from..<from + Int(count)])
        }
        let bytes = read(Int(count), at: offset)
        if bytes.count >= Self.keptRead { recent = (offset, bytes) }
        return bytes
    }

    /// The last read of at least `keptRead` bytes outside the two windows, kept: an MP3 whose tag ends past
    /// the head has the 64 KiB after its tag read by the sniffer (is there a frame for TagLib?) and again by
    /// the MPEG reader (which frame starts the stream?), in every scan and twice in every tag write's check.
    private var recent: (offset: Int64, bytes: [UInt8])?
    static let keptRead = 4096

    private func read(_ count: Int, at offset: Int64) -> [UInt8] {
        // No more than the size stat gave (which every reader goes by): a file shorter than the window
        // (most music files) is then read by one pread, not one plus a second that only finds the end.
        let count = Int(max(0, min(Int64(count), facts.size - offset)))
        // Not zero-filled first (64 KiB twice per file): the array holds only what pread wrote.
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }                           // end of file, or an error: a short read
                done += n
            }
            initialized = done
        }
    }
}
