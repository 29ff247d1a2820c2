#if canImport(Glibc)
import Glibc
#endif
import MediaModel
import MediaScanner

/// The mount points of this process's namespace, from /proc/self/mountinfo. The file signals a change
/// (POLLPRI) when anything is mounted or unmounted, so a watcher learns of a disk coming and going without
/// polling: inotify reports an unmount (IN_UNMOUNT) but never a mount on top of a watched directory.
final class MountTable {
    let descriptor: Int32

    init() {
        descriptor = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The mount points at or below any of `roots` (`KernelMountTable`, which the scanner reads too).
    func mountPoints(under roots: [MediaPath]) -> Set<MediaPath> {
        guard descriptor >= 0 else { return [] }
        return KernelMountTable.mountPoints(readingFrom: descriptor).filter { mountPoint in
            roots.contains(where: { mountPoint == $0 || mountPoint.hasPrefix(directory: $0) })
        }
    }

    static func unescape(_ field: ArraySlice<UInt8>) -> [UInt8] { KernelMountTable.unescape(field) }
}
