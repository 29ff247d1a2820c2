#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// The directories under the watched roots, each with its inotify watch, known by path and by watch.
/// Directories are entered as the scanner's walker enters them: hidden ones are skipped, a symlinked
/// directory is followed unless it leads into a library root (those files are indexed under the root), and
/// a directory met twice (a symlink loop, a bind mount) is watched once.
final class WatchedTree {
    let inotify: Inotify
    private let libraryRoots: [MediaPath]
    /// At most this many watches (nil: as many as the kernel allows); the rest is rescanned periodically.
    private let maxWatches: Int?
    private(set) var pathByWatch: [Int32: MediaPath] = [:]
    private var watchByPath: [MediaPath: Int32] = [:]
    /// Directories that could not be watched (the watch limit): each is rescanned, subtree and all, every
    /// `WatchOptions.fallbackInterval`.
    private(set) var unwatched: Set<MediaPath> = []
    /// Set the first time the limit is reached, so it is reported once.
    private(set) var limitReached = false

    init(inotify: Inotify, libraryRoots: [MediaPath], maxWatches: Int?) {
        self.inotify = inotify
        self.libraryRoots = libraryRoots
        self.maxWatches = maxWatches
    }

    var count: Int { watchByPath.count }

    func path(of watch: Int32) -> MediaPath? { pathByWatch[watch] }

    func isWatched(_ directory: MediaPath) -> Bool { watchByPath[directory] != nil }

    /// Watches `top` and every directory below it. Returns the number of directories newly watched.
    @discardableResult
    func watchTree(_ top: MediaPath) -> Int {
        var added = 0
        var stack = [top]
        while let directory = stack.popLast() {
            if watchByPath[directory] == nil {
                if let maxWatches, watchByPath.count >= maxWatches {
                    limitReached = true
                    unwatched.insert(directory)
                    continue                          // its subtree is rescanned with it
                }
                switch inotify.watch(directory) {
                case .success(let watch):
                    // The kernel gives one watch per directory: one already known by another name that still
                    // leads there is a symlink loop or a bind mount (entered once); otherwise it was renamed.
                    if let previous = pathByWatch[watch], previous != directory {
                        if FileKey(previous) == FileKey(directory) { continue }
                        watchByPath[previous] = nil
                    }
                    pathByWatch[watch] = directory
                    watchByPath[directory] = watch
                    unwatched.remove(directory)
                    added += 1
                case .failure(let error) where error.isWatchLimit:
                    limitReached = true
                    unwatched.insert(directory)
                    continue
                case .failure:
                    continue                          // vanished or unreadable meanwhile: the scan reports it
                }
            }
            stack += subdirectories(of: directory)
        }
        return added
    }

    /// A directory renamed within the watched tree: its watches stay (they follow the inode); their paths change.
    func move(_ old: MediaPath, to new: MediaPath) {
        for (path, watch) in watchByPath where path == old || path.hasPrefix(directory: old) {
            let moved = MediaPath(bytes: new.bytes + path.bytes.dropFirst(old.bytes.count))
            watchByPath[path] = nil
            watchByPath[moved] = watch
            pathByWatch[watch] = moved
        }
        for path in unwatched where path == old || path.hasPrefix(directory: old) {
            unwatched.remove(path)
            unwatched.insert(MediaPath(bytes: new.bytes + path.bytes.dropFirst(old.bytes.count)))
        }
    }

    /// Stops watching `top` and everything below it (moved out of the tree, or to be watched afresh).
    func forgetTree(_ top: MediaPath) {
        for (path, watch) in watchByPath where path == top || path.hasPrefix(directory: top) {
            inotify.remove(watch)
            watchByPath[path] = nil
            pathByWatch[watch] = nil
        }
        unwatched = unwatched.filter { !($0 == top || $0.hasPrefix(directory: top)) }
    }

    /// The kernel dropped a watch (IN_IGNORED: the directory was deleted or its file system unmounted).
    func dropped(_ watch: Int32) {
        guard let path = pathByWatch.removeValue(forKey: watch) else { return }
        if watchByPath[path] == watch { watchByPath[path] = nil }
    }

    private func subdirectories(of directory: MediaPath) -> [MediaPath] {
        guard let dir = directory.withCString({ opendir($0) }) else { return [] }
        defer { closedir(dir) }
        var result: [MediaPath] = []
        while let entry = readdir(dir) {
            let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            guard let first = name.first, first != UInt8(ascii: ".") else { continue }   // hidden, ".", ".."
            let path = directory.appending(MediaPath(bytes: name))
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): result.append(path)
            case Int32(DT_LNK), Int32(DT_UNKNOWN):
                var st = stat()
                guard path.withCString({ stat($0, &st) }) == 0, st.st_mode & S_IFMT == S_IFDIR else { continue }
                if Int32(entry.pointee.d_type) == Int32(DT_LNK) && leadsIntoLibraryRoot(path) { continue }
                result.append(path)
            default: continue
            }
        }
        return result
    }

    private func leadsIntoLibraryRoot(_ link: MediaPath) -> Bool {
        guard let resolved = link.withCString({ realpath($0, nil) }) else { return true }
        defer { free(resolved) }
        let target = MediaPath(bytes: Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
        return libraryRoots.contains { target == $0 || target.hasPrefix(directory: $0) }
    }
}

/// A directory's identity on disk, to watch each once however many names lead to it.
struct FileKey: Hashable {
    var device: UInt64
    var inode: UInt64

    init?(_ path: MediaPath) {
        var st = stat()
        guard path.withCString({ stat($0, &st) }) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}
