#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// The mount points of this process's namespace, as the kernel lists them in `/proc/self/mountinfo`: every
/// kind of mount, bind mounts, overlay, FUSE and autofs included. A bind mount has its parent's device
/// number, so comparing devices misses it (issue 47: an unmounted bind-mounted root looked empty, its items
/// became pair-only and a copy made from it took them); the mount table does not.
public enum KernelMountTable {
    /// The mount points now, or an empty set when the table cannot be read (no /proc: then only device
    /// numbers tell mounts).
    public static func mountPoints() -> Set<MediaPath> {
        let fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        return mountPoints(readingFrom: fd)
    }

    /// The mount points listed by the mountinfo file open at `descriptor` (read from its start with pread:
    /// a watcher keeps one open to poll it for changes).
    public static func mountPoints(readingFrom descriptor: Int32) -> Set<MediaPath> {
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            guard n > 0 else { break }
            text += buffer[..<n]
            offset += off_t(n)
        }
        return mountPoints(in: text)
    }

    /// The mount points in mountinfo's text: "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw",
    /// the fifth field of each line.
    public static func mountPoints(in text: [UInt8]) -> Set<MediaPath> {
        var result: Set<MediaPath> = []
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count > 4 else { continue }
            result.insert(MediaPath(bytes: unescape(fields[4])))
        }
        return result
    }

    /// mountinfo writes space, tab, newline and backslash as octal escapes ("\040").
    public static func unescape(_ field: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var i = field.startIndex
        while i < field.endIndex {
            if field[i] == UInt8(ascii: "\\"), i + 3 < field.endIndex,
               let value = UInt8(String(decoding: field[(i + 1)...(i + 3)], as: UTF8.self), radix: 8) {
                out.append(value)
                i += 4
            } else {
                out.append(field[i])
                i += 1
            }
        }
        return out
    }
}
