import Foundation
import MediaIndex
import MediaModel
import MediaProbe

/// One directory as the walker found it: its media files (with stat facts) in name order.
struct DirectoryListing {
    struct File {
        var path: MediaPath
        var stamp: FileStamp
        /// Set for a dangling symlink or an unreadable entry: the scan records it as a failure.
        var problem: String?
        /// The file system it is on (`st_dev`): a rename is recognised by its inode on the same one.
        var device: Int64 = 0
        /// The file's birth time in nanoseconds (statx), set when it is read (`ProbeOutcome`), not by the walk:
        /// only a row written needs it (`FileBirth`). Nil where the file system does not give it.
        var birth: Int64? = nil
    }
    var path: MediaPath
    var files: [File]
    /// Playlist files (m3u, pls, xspf…) in this directory.
    var playlists: [MediaPath] = []
    /// The directory's own file system, and whether it is the top of one (its parent is on another).
    var device: Int64 = 0
    var isMountPoint = false
    /// Entries left out by an exclude list, and the rule that did it (for `--dry-run`).
    var excluded: [(path: MediaPath, rule: ExcludeList.Rule)] = []
    /// Lyrics sidecars beside the media files, by the files' stem (`LyricsSidecars.found`).
    var sidecars: [[UInt8]: [SidecarStamp]] = [:]
    /// Files here that are another path of a file this walk met before (hard links): each is still listed.
    var hardLinked = 0
}

/// Walks directory trees on byte paths with POSIX calls (opendir/readdir/fstatat), never Foundation's
/// String paths, so non-UTF-8 names survive. Depth-first, entries in byte order, so a rescan meets files in
/// the same order. Symlinks are followed; every directory is entered once (by device and inode), which
/// breaks loops, and a file reached through a symlink is reported once. A hard link is a path of its own:
/// each path of a hard-linked file in the roots is reported (an item each, as MPD, beets and Navidrome list
/// every path: users hard-link albums into "best of" or seeding folders), and counted.
/// One walker serves all roots of a scan, so overlapping roots are not walked twice.
///
/// A symlink whose target lies inside a library root (any root, scanned now or not) is not followed: that
/// file is indexed once, under its own path in its own root, whichever roots a scan walks and in whatever
/// order. Symlinks to places outside every root are followed.
final class TreeWalker {
    fileprivate struct FileID: Hashable { let device: UInt64; let inode: UInt64 }
    private var enteredDirectories: Set<FileID> = []
    /// Files reported through a symlink: another symlink to one of them adds no path of its own.
    private var reportedThroughLinks: Set<FileID> = []
    /// Files met directly that a symlink or a hard link may reach again: those with several links, and every
    /// file when there are no library roots. Only those are added, so the set stays small (it held every
    /// file, 16 bytes and more each: 60 MB of a 1,000,000-file scan). A plain file met directly can be met
    /// again only through a symlink or as a hard link (directories are entered once), and symlinks into the
    /// library's roots are not followed at all, so this is exact.
    private var reportedDirectly: Set<FileID> = []
    /// Directories to read, with the device of the directory they were found in and the exclude list
    /// inherited from above.
    private var pending: [(path: MediaPath, parentDevice: Int64?, excludes: ExcludeList)] = []
    private let libraryRoots: [MediaPath]
    private let excludes: [String]
    /// Directories that could not be read: nothing indexed below them may be taken as deleted.
    private(set) var unreadable: [(path: MediaPath, reason: String)] = []

    /// `libraryRoots`: every root of the library (their targets are not followed through symlinks).
    /// `excludes`: patterns left out below every root walked (`mlib scan --exclude`), besides the exclude
    /// files found in the tree (`ExcludeList`).
    /// `rootExcludes`: each root's stored exclude list (`mlib root exclude`), as if in a .mlibignore at it.
    init(libraryRoots: [MediaPath] = [], excludes: [String] = [], rootExcludes: [MediaPath: [String]] = [:]) {
        self.libraryRoots = libraryRoots
        self.excludes = excludes
        self.rootExcludes = rootExcludes
    }
    private let rootExcludes: [MediaPath: [String]]
    /// The kernel's mount points, read at each `start`: a directory listed there is a mount point even
    /// with its parent's device (a bind mount).
    private var mountPoints: Set<MediaPath> = []

    /// Starts the walk of a root or of a directory inside one. For a directory inside a root, the exclude
    /// files between the root and it apply too, so a subtree scan leaves out what a full scan does.
    func start(_ directory: MediaPath) {
        mountPoints = KernelMountTable.mountPoints()
        var parent = stat()
        let root = RootContainment.root(holding: directory, among: libraryRoots) ?? directory
        var list = ExcludeList()
        list.add(lines: excludes.map { Substring($0) }, base: root) { _ in "--exclude" }
        list.add(lines: (rootExcludes[root] ?? []).map { Substring($0) }, base: root) { _ in "the root's exclude list" }
        var ancestor = root
        let below = directory.bytes.dropFirst(root.bytes.count).split(separator: UInt8(ascii: "/"))
        for component in below {
            Self.readExcludeFiles(in: ancestor, into: &list)
            ancestor = ancestor.appending(MediaPath(bytes: Array(component)))
            if list.exclusion(of: ancestor, isDirectory: true) != nil { pending = []; return }
        }
        pending = [(directory, directory.directory.withCString { stat($0, &parent) } == 0 ? Int64(parent.st_dev) : nil, list)]
    }

    /// The next directory, or nil when the tree is done.
    func next() -> DirectoryListing? {
        while let (directory, parentDevice, excludes) = pending.popLast() {
            if let listing = read(directory, parentDevice: parentDevice, excludes: excludes) { return listing }
        }
        return nil
    }

    /// Adds the patterns of `directory`'s exclude files (`.mlibignore`, `.mpdignore`), if it has any.
    private static func readExcludeFiles(in directory: MediaPath, into list: inout ExcludeList) {
        for name in ExcludeList.fileNames {
            let path = directory.appending(MediaPath(name))
            let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
            while bytes.count < 1 << 20, case let n = Glibc.read(fd, &chunk, chunk.count), n > 0 { bytes += chunk[..<n] }
            let text = String(decoding: bytes, as: UTF8.self)
            list.add(lines: text.split(separator: "\n", omittingEmptySubsequences: false), base: directory) {
                "\(name):\($0) in \(directory)"
            }
        }
    }

    /// False when this path adds nothing: a symlink to a file reported already (under its own path or
    /// another link's), or, in a walk without library roots (which follows every symlink), a file reported
    /// before through a symlink. A hard link met directly is reported: `hardLinked` counts it.
    private func shouldReport(_ st: stat, throughLink: Bool, hardLinked: inout Int) -> Bool {
        let id = FileID(st)
        if throughLink { return !reportedDirectly.contains(id) && reportedThroughLinks.insert(id).inserted }
        if reportedThroughLinks.contains(id) { return false }
        if (st.st_nlink > 1 || libraryRoots.isEmpty) && !reportedDirectly.insert(id).inserted { hardLinked += 1 }
        return true
    }

    /// Whether a symlink's target is inside a library root: then it is indexed under its real path.
    private func pointsIntoALibraryRoot(_ link: MediaPath) -> Bool {
        guard !libraryRoots.isEmpty, let resolved = link.withCString({ realpath($0, nil) }) else { return false }
        defer { free(resolved) }
        let target = MediaPath(bytes: Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
        return RootContainment.root(holding: target, among: libraryRoots) != nil
    }

    private func read(_ directory: MediaPath, parentDevice: Int64?, excludes inherited: ExcludeList) -> DirectoryListing? {
        let fd = directory.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { unreadable.append((directory, String(cString: strerror(errno)))); return nil }
        // A folder that can be listed but not entered (read without search permission, chmod 644): readdir
        // works, every fstatat of an entry fails, and each file was reported as a dangling link. Looking up
        // "." needs the same permission, so the folder is reported once instead, as unreadable.
        var searchable = stat()
        if fstatat(fd, ".", &searchable, 0) != 0 && (errno == EACCES || errno == EPERM) {
            unreadable.append((directory, String(cString: strerror(errno))))
            close(fd)
            return nil
        }
        var st = stat()
        guard fstat(fd, &st) == 0, enteredDirectories.insert(FileID(st)).inserted, let dir = fdopendir(fd) else {
            close(fd)
            return nil
        }
        defer { closedir(dir) }
        let device = Int64(st.st_dev)

        var files: [DirectoryListing.File] = []
        var playlists: [MediaPath] = []
        var subdirectories: [MediaPath] = []
        var excluded: [(path: MediaPath, rule: ExcludeList.Rule)] = []
        var sidecarNames: [[UInt8]] = []
        var hardLinked = 0, ignored = 0
        // The entries first: an exclude file in this directory applies to all of them.
        var entries: [(name: [UInt8], type: UInt8)] = []
        var hasExcludeFile = false
        while let entry = readdir(dir) {
            let (name, type, excludeFile) = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { name in
                    (MediaFileFilter.isHidden(name) ? nil : Array(UnsafeRawBufferPointer(start: name, count: strlen(name))),
                     entry.pointee.d_type, strcmp(name, ".mlibignore") == 0 || strcmp(name, ".mpdignore") == 0)
                }
            }
            hasExcludeFile = hasExcludeFile || excludeFile
            if let name { entries.append((name, type)) }             // not hidden, ".", ".."
        }
        var excludes = inherited
        if hasExcludeFile { Self.readExcludeFiles(in: directory, into: &excludes) }
        for (name, type) in entries {
            let path = directory.appending(MediaPath(bytes: name))

            let kind = Int32(type)
            if !excludes.isEmpty, let rule = excludes.exclusion(of: path, isDirectory: kind == DT_DIR) {
                excluded.append((path, rule))
                continue
            }
            if kind == DT_DIR { subdirectories.append(path); continue }
            guard kind == DT_REG || kind == DT_LNK || kind == DT_UNKNOWN else { continue }
            if kind == DT_LNK && pointsIntoALibraryRoot(path) { continue }
            // Most non-media files stop here, on their name, before any system call.
            let verdict = MediaFileFilter.verdict(forName: name)
            if verdict == .skip && !LyricsReader.isAblated && LyricsSidecars.isSidecarName(name) { sidecarNames.append(name); continue }   // stat'ed below, if a file's
            if kind == DT_REG && verdict == .skip { continue }
            var target = stat()
            let statResult = (name + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { fstatat(dirfd(dir), $0.baseAddress!, &target, 0) }
            }
            if statResult != 0 {
                // A dangling symlink with a media name is worth a failure line; anything else is noise.
                if verdict == .media {
                    files.append(.init(path: path, stamp: FileStamp(size: 0, mtimeNanoseconds: 0, inode: 0),
                                       problem: String(cString: strerror(errno))))
                }
                continue
            }
            switch target.st_mode & S_IFMT {
            case S_IFDIR:
                if !excludes.isEmpty, let rule = excludes.exclusion(of: path, isDirectory: true) {
                    excluded.append((path, rule))                // `dir/` patterns, seen through a symlink
                } else {
                    subdirectories.append(path)
                }
            case S_IFREG where verdict == .playlist:
                if shouldReport(target, throughLink: kind != DT_REG, hardLinked: &ignored) { playlists.append(path) }
            case S_IFREG:
                guard verdict == .media || (verdict == .sniff && MediaFileFilter.sniff(path)) else { continue }
                guard shouldReport(target, throughLink: kind != DT_REG, hardLinked: &hardLinked) else { continue }
                files.append(.init(path: path, stamp: FileStamp(target), problem: nil, device: Int64(target.st_dev)))
            default: continue
            }
        }
        files.sort { $0.path < $1.path }
        let sidecars = LyricsSidecars.found(sidecarNames, files: files, directory: dir)
        pending.append(contentsOf: subdirectories.sorted(by: >).map { ($0, device, excludes) })   // popLast visits them in ascending order
        return DirectoryListing(path: directory, files: files, playlists: playlists.sorted(), device: device,
                                isMountPoint: (parentDevice.map { $0 != device } ?? false) || mountPoints.contains(directory),
                                excluded: excluded.sorted { $0.path < $1.path }, sidecars: sidecars, hardLinked: hardLinked)
    }
}

extension FileStamp {
    init(_ st: stat) {
        self.init(size: Int64(st.st_size),
                  mtimeNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
                  inode: Int64(bitPattern: UInt64(st.st_ino)))
    }
}

private extension TreeWalker.FileID {
    init(_ st: stat) { self.init(device: UInt64(st.st_dev), inode: UInt64(st.st_ino)) }
}

/// A `TreeWalker` on a thread of its own, up to `depth` directories ahead of the scan: reading directories
/// (a system call per entry) overlaps diffing them against the index, which made an unchanged rescan
/// wait for one and then the other. The bound keeps memory flat on any tree.
final class WalkAhead: @unchecked Sendable {
    enum Event {
        case directory(DirectoryListing)
        /// A root is walked to the end; `unreadable` holds every directory that could not be read so far.
        case rootDone(MediaPath, unreadable: [(path: MediaPath, reason: String)])
    }

    private let condition = NSCondition()
    private var events: [Event] = []
    private var finished = false
    private var cancelled = false
    private let depth: Int

    init(roots: [MediaPath], libraryRoots: [MediaPath] = [], excludes: [String] = [], rootExcludes: [MediaPath: [String]] = [:],
         depth: Int = 64) {
        self.depth = depth
        let thread = Thread { [self] in
            walk(roots, walker: TreeWalker(libraryRoots: libraryRoots, excludes: excludes, rootExcludes: rootExcludes))
        }
        thread.name = "mlib.scan.walk"
        thread.start()
    }

    /// The next event in walk order, waiting for it if need be; nil when every root is done.
    func next() -> Event? {
        condition.lock()
        defer { condition.unlock() }
        while events.isEmpty && !finished { condition.wait() }
        guard !events.isEmpty else { return nil }
        condition.signal()
        return events.removeFirst()
    }

    /// Stops the walk (the thread ends at its next directory).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    private func walk(_ roots: [MediaPath], walker: TreeWalker) {
        defer { condition.lock(); finished = true; condition.broadcast(); condition.unlock() }
        for root in roots {
            walker.start(root)
            while let listing = walker.next() {
                guard put(.directory(listing)) else { return }
            }
            guard put(.rootDone(root, unreadable: walker.unreadable)) else { return }
        }
    }

    private func put(_ event: Event) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while events.count >= depth && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        events.append(event)
        condition.signal()
        return true
    }
}
