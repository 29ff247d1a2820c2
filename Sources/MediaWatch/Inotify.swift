#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// One inotify(7) instance: a watch per directory, events read in batches. inotify needs no library; the
/// kernel coalesces identical unread events, so a copy's stream of IN_MODIFY costs little.
final class Inotify {
    struct Event {
        var watch: Int32
        var mask: UInt32
        var cookie: UInt32
        /// The entry's name in the watched directory (empty for events about the directory itself).
        var name: [UInt8]

        func has(_ flag: UInt32) -> Bool { mask & flag != 0 }
        var isDirectory: Bool { has(Inotify.isDir) }
    }

    // inotify(7)'s flags as UInt32 (Glibc imports some as Int32, some as enum cases).
    static let access: UInt32 = 0x0000_0001, modify: UInt32 = 0x0000_0002, attrib: UInt32 = 0x0000_0004
    static let closeWrite: UInt32 = 0x0000_0008, movedFrom: UInt32 = 0x0000_0040, movedTo: UInt32 = 0x0000_0080
    static let create: UInt32 = 0x0000_0100, delete: UInt32 = 0x0000_0200, deleteSelf: UInt32 = 0x0000_0400
    static let moveSelf: UInt32 = 0x0000_0800, unmount: UInt32 = 0x0000_2000, overflow: UInt32 = 0x0000_4000
    static let ignored: UInt32 = 0x0000_8000, onlyDir: UInt32 = 0x0100_0000, isDir: UInt32 = 0x4000_0000

    /// What a directory's watch reports: entries created, written, changed, moved or deleted, and the
    /// directory itself going away. Not IN_ACCESS/IN_OPEN: reading a library must not wake its watcher.
    static let directoryMask: UInt32 = create | modify | attrib | closeWrite | movedFrom | movedTo | delete
        | deleteSelf | moveSelf | onlyDir

    let descriptor: Int32

    init() throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw WatchError.system(call: "inotify_init1", errno: errno) }
    }

    deinit { close(descriptor) }

    /// Adds (or returns the existing) watch of a directory; the error is errno (ENOSPC: the watch limit).
    func watch(_ directory: MediaPath) -> Result<Int32, WatchError> {
        let watch = directory.withCString { inotify_add_watch(descriptor, $0, Self.directoryMask) }
        return watch >= 0 ? .success(watch) : .failure(.system(call: "inotify_add_watch", errno: errno))
    }

    func remove(_ watch: Int32) { _ = inotify_rm_watch(descriptor, watch) }

    /// Every event queued now (none if none: the descriptor is non-blocking).
    func read() -> [Event] {
        var events: [Event] = []
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n = Glibc.read(descriptor, buffer, size)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            var offset = 0
            while offset + 16 <= n {
                let watch = buffer.load(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let cookie = buffer.load(fromByteOffset: offset + 8, as: UInt32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let nameStart = buffer.advanced(by: offset + 16).assumingMemoryBound(to: UInt8.self)
                let name = Array(UnsafeBufferPointer(start: nameStart, count: strnlen(UnsafeRawPointer(nameStart).assumingMemoryBound(to: CChar.self), length)))
                events.append(Event(watch: watch, mask: mask, cookie: cookie, name: name))
                offset += 16 + length
            }
        }
        return events
    }
}

public enum WatchError: Error, CustomStringConvertible, Equatable {
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        }
    }

    var isWatchLimit: Bool { if case .system(_, let code) = self { code == ENOSPC } else { false } }
}
