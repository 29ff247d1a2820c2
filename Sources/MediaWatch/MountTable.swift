#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// The mount points of this process's namespace, from /proc/self/mountinfo. The file signals a change
/// (POLLPRI) when anything is mounted or unmounted, so a watcher learns of a disk coming and going without
/// polling: inotify reports an unmount (IN_UNMOUNT) but never a mount on top of a watched directory.
final class MountTable {
    let descriptor: Int32

    init() {
        descriptor = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The mount points at or below any of `roots`.
    func mountPoints(under roots: [MediaPath]) -> Set<MediaPath> {
        guard descriptor >= 0 else { return [] }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            guard n > 0 else { break }
            text += buffer[..<n]
            offset += off_t(n)
        }
        var result: Set<MediaPath> = []
        for line in text.split(separator: UInt8(ascii: "\n")) {
            // "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw": the fifth field.
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count > 4 else { continue }
            let mountPoint = MediaPath(bytes: Self.unescape(fields[4]))
            if roots.contains(where: { mountPoint == $0 || mountPoint.hasPrefix(directory: $0) }) { result.insert(mountPoint) }
        }
        return result
    }

    /// mountinfo writes space, tab, newline and backslash as octal escapes ("\040").
    static func unescape(_ field: ArraySlice<UInt8>) -> [UInt8] {
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
