#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Library
import MediaIndex
import MediaModel
import MediaScanner

/// Keeps a library in step with its directories as they change (`mlib watch`): one inotify watch per
/// directory; events mark directories changed; once they pause (`WatchOptions.debounce`) the changed
/// directories are handed to `Library.scan`, the scan of `mlib scan` (lock, walk, diff, probe, write, moves,
/// playlist mirroring), so there is no second way of reading the disk. A rename keeps its item because the
/// scanner claims it by inode; a directory moved within the tree keeps its watches (they follow the inode;
/// the cookie pairing IN_MOVED_FROM with IN_MOVED_TO renames them here). Between events it sleeps in
/// poll(2): no CPU when idle.
public final class LibraryWatcher {
    /// One scan the watcher ran, and why.
    public struct Scan: Sendable {
        public enum Reason: String, Sendable { case start, changes, overflow, mount, fallback, rootBack }
        public var reason: Reason
        public var directories: [MediaPath]
        public var summary: ScanSummary
        /// The playlist files mirrored after it.
        public var playlists: PlaylistMirror.Report
    }

    public let library: Library
    /// How each scan runs; its `lockTimeout` is ignored: when another scan holds the lock, the changes
    /// wait and are tried again a second later. `shouldStop` ends the watch too.
    public let scanOptions: Library.ScanOptions
    public let options: WatchOptions
    public var onScan: (Scan) -> Void = { _ in }
    /// Things the user should know once: the watch limit reached, events lost, a root gone or back.
    public var onNotice: (String) -> Void = { _ in }
    /// Readable when the watcher should stop (a signal's self-pipe); `scanOptions.shouldStop` is asked then.
    public var wakeDescriptor: Int32 = -1

    private let targets: [MediaPath]
    private let libraryRoots: [MediaPath]
    private let inotify: Inotify
    private let tree: WatchedTree
    private let mounts = MountTable()
    private var knownMounts: Set<MediaPath> = []
    private var changes = ChangeSet()
    private var reasons: Set<Scan.Reason> = []
    private var lostTargets: Set<MediaPath> = []
    private var lastFallback = Date()
    private var lockBusySince: Date?

    /// `targets`: the roots (or directories inside roots) to watch (see `Library.addRoots(for:)`).
    public init(library: Library, targets: [MediaPath], scanOptions: Library.ScanOptions = Library.ScanOptions(),
                options: WatchOptions = WatchOptions()) throws {
        self.library = library
        self.scanOptions = scanOptions
        self.targets = targets
        libraryRoots = try library.store.roots()
        self.options = options
        inotify = try Inotify()
        tree = WatchedTree(inotify: inotify, libraryRoots: libraryRoots, maxWatches: options.maxWatches)
    }

    /// Directories watched now.
    public var watchCount: Int { tree.count }

    /// Watches, scans once (unless `options.initialScan` is false), then follows events until
    /// `scanOptions.shouldStop()` is true.
    public func run() async throws {
        let started = Date()
        knownMounts = mounts.mountPoints(under: targets)
        for target in targets { tree.watchTree(target) }
        reportLimit()
        onNotice("watching \(tree.count) director\(tree.count == 1 ? "y" : "ies") (set up in \(String(format: "%.2f", Date().timeIntervalSince(started))) s)")
        if options.initialScan {
            for target in targets { changes.touch(target, at: .distantPast) }
            reasons.insert(.start)
            try await scanChanges(force: true)
        }
        while !scanOptions.shouldStop() {
            waitForEvents(until: nextWakeUp())
            if scanOptions.shouldStop() { break }
            let now = Date()
            handle(inotify.read(), at: now)
            checkMounts(at: now)
            checkLostTargets(at: now)
            if !tree.unwatched.isEmpty, now.timeIntervalSince(lastFallback) >= options.fallbackInterval {
                lastFallback = now
                for directory in tree.unwatched { changes.touch(directory, at: .distantPast) }
                reasons.insert(.fallback)
            }
            try await scanChanges(force: false)
        }
    }

    // MARK: Events

    private func handle(_ events: [Inotify.Event], at now: Date) {
        guard !events.isEmpty else { return }
        var movedAway: [UInt32: MediaPath] = [:]
        for event in events {
            if event.has(Inotify.overflow) {
                // Events were lost: which directories changed is unknown, and new ones may lack watches.
                onNotice("too many changes at once (inotify queue overflow): rescanning every watched directory")
                for target in targets { tree.watchTree(target); changes.touch(target, at: now) }
                reasons.insert(.overflow)
                continue
            }
            if event.has(Inotify.ignored) { tree.dropped(event.watch); continue }
            guard let directory = tree.path(of: event.watch) else { continue }
            if event.name.isEmpty {
                // The directory itself: deleted or moved (its parent's event says where), or unmounted.
                if event.has(Inotify.deleteSelf | Inotify.moveSelf | Inotify.unmount), targets.contains(directory) {
                    if !lostTargets.contains(directory) { onNotice("\(directory): gone (deleted, moved or unmounted); nothing removed, watching for it to come back") }
                    lostTargets.insert(directory)
                    tree.forgetTree(directory)
                }
                continue
            }
            guard Self.matters(event.name) else { continue }
            let entry = directory.appending(MediaPath(bytes: event.name))
            if event.isDirectory {
                if event.has(Inotify.movedFrom) {
                    movedAway[event.cookie] = entry
                    changes.touch(entry, at: now)
                } else if event.has(Inotify.movedTo), let old = movedAway.removeValue(forKey: event.cookie) {
                    tree.move(old, to: entry)
                    changes.touch(entry, at: now)
                } else if event.has(Inotify.create | Inotify.movedTo) {
                    tree.watchTree(entry)
                    changes.touch(entry, at: now)
                } else {
                    changes.touch(entry, at: now)
                }
            } else {
                if event.has(Inotify.create | Inotify.modify) && Self.isRegularFile(entry) {
                    changes.writing(entry, at: now)
                } else if event.has(Inotify.closeWrite | Inotify.delete | Inotify.movedFrom) {
                    changes.closed(entry)
                }
                changes.touch(directory, at: now)
            }
        }
        // Moved out of the watched tree (no IN_MOVED_TO with the same cookie): stop watching them.
        for old in movedAway.values { tree.forgetTree(old) }
        reasons.insert(.changes)
        reportLimit()
    }

    /// Hidden entries are not indexed (editors' and rsync's temporary files among them), except the
    /// exclude lists, which change what is.
    static func matters(_ name: [UInt8]) -> Bool {
        name.first != UInt8(ascii: ".") || ExcludeList.fileNames.contains(String(decoding: name, as: UTF8.self))
    }

    private static func isRegularFile(_ path: MediaPath) -> Bool {
        var st = stat()
        return path.withCString { lstat($0, &st) } == 0 && st.st_mode & S_IFMT == S_IFREG
    }

    /// A disk mounted or unmounted at or below a watched directory: its watches are made afresh (those of
    /// an unmounted file system are gone; a mount on top hides the old ones) and the directory is scanned
    /// (an unmounted disk's items are kept by the scanner's doubt rules).
    private func checkMounts(at now: Date) {
        guard pollOnce(mounts.descriptor, Int16(POLLPRI)) else { return }
        let current = mounts.mountPoints(under: targets)
        let changed = current.symmetricDifference(knownMounts)
        knownMounts = current
        for mountPoint in changed.sorted(by: { $0.bytes.count < $1.bytes.count }) {
            onNotice("\(mountPoint): \(current.contains(mountPoint) ? "mounted" : "unmounted"); rescanning it")
            tree.forgetTree(mountPoint)
            tree.watchTree(mountPoint)
            lostTargets.remove(mountPoint)
            changes.touch(mountPoint, at: now)
            reasons.insert(.mount)
        }
    }

    private func checkLostTargets(at now: Date) {
        for target in lostTargets where Self.isDirectory(target) {
            lostTargets.remove(target)
            onNotice("\(target): back; rescanning it")
            tree.watchTree(target)
            changes.touch(target, at: now)
            reasons.insert(.rootBack)
        }
    }

    private static func isDirectory(_ path: MediaPath) -> Bool {
        var st = stat()
        return path.withCString { stat($0, &st) } == 0 && st.st_mode & S_IFMT == S_IFDIR
    }

    private var limitReported = false
    private func reportLimit() {
        guard tree.limitReached, !limitReported else { return }
        limitReported = true
        let limit = options.maxWatches.map { "--max-watches \($0)" } ?? "the inotify watch limit (/proc/sys/fs/inotify/max_user_watches)"
        onNotice("\(limit) reached: \(tree.unwatched.count) directories are not watched and are rescanned every \(Int(options.fallbackInterval)) s")
    }

    // MARK: Scanning

    private func scanChanges(force: Bool) async throws {
        let now = Date()
        if let busy = lockBusySince, now.timeIntervalSince(busy) < 1 { return }
        let ready = force ? changes.take(at: .distantFuture, options) : changes.take(at: now, options)
        guard !ready.isEmpty else { return }
        let directories = scannable(ready)
        let reason = reasons.contains(.start) ? .start : reasons.contains(.overflow) ? .overflow
            : reasons.contains(.mount) ? .mount : reasons.contains(.rootBack) ? .rootBack
            : reasons.contains(.changes) ? .changes : Scan.Reason.fallback
        guard !directories.isEmpty else { reasons.removeAll(); return }
        // Between two scans driven by events nothing went unseen; after a blind spell (start, lost events,
        // a disk away, the unwatched part) the scan pairs as a cron scan does.
        var scanOptions = scanOptions
        scanOptions.weakEvidenceAcrossScans = reason != .changes
        scanOptions.lockTimeout = 0
        let result: Library.ScanResult
        do {
            result = try await library.scan(directories, options: scanOptions)
        } catch where Library.isScanLockBusy(error) {
            lockBusySince = now                    // another scan (cron) holds the library: try again shortly
            for directory in ready { changes.touch(directory, at: .distantPast) }
            return
        }
        lockBusySince = nil
        reasons.removeAll()
        onScan(Scan(reason: reason, directories: directories, summary: result.summary, playlists: result.playlists))
    }

    /// The fewest directories that cover `changed`: one inside another is scanned with it; one that no
    /// longer exists is scanned as gone (the scanner drops what it held) when its parent exists, else its
    /// nearest ancestor that does; nothing outside the watched targets, nothing under a lost target.
    private func scannable(_ changed: [MediaPath]) -> [MediaPath] {
        var result: [MediaPath] = []
        for var directory in changed.sorted(by: { $0.bytes.count < $1.bytes.count }) {
            guard let target = targets.first(where: { directory == $0 || directory.hasPrefix(directory: $0) }),
                  !lostTargets.contains(target) else { continue }
            while directory != target && !Self.exists(directory.directory) { directory = directory.directory }
            if result.contains(where: { directory == $0 || directory.hasPrefix(directory: $0) }) { continue }
            result.append(directory)
        }
        return result
    }

    private static func exists(_ path: MediaPath) -> Bool {
        var st = stat()
        return path.withCString { lstat($0, &st) } == 0
    }

    // MARK: Waiting

    private func nextWakeUp() -> Date? {
        var times: [Date] = []
        if let due = changes.nextDue(options) { times.append(due) }
        if let busy = lockBusySince { times.append(busy.addingTimeInterval(1)) }
        if !lostTargets.isEmpty { times.append(Date().addingTimeInterval(options.retryInterval)) }
        if !tree.unwatched.isEmpty { times.append(lastFallback.addingTimeInterval(options.fallbackInterval)) }
        return times.min()
    }

    /// Sleeps until an event, a mount change, a stop request or `deadline` (nil: no deadline).
    private func waitForEvents(until deadline: Date?) {
        var fds = [pollfd(fd: inotify.descriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: mounts.descriptor, events: Int16(POLLPRI), revents: 0)]
        if wakeDescriptor >= 0 { fds.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)) }
        let timeout = deadline.map { Int32(max(0, min(Double(Int32.max), ($0.timeIntervalSinceNow * 1000).rounded(.up)))) } ?? -1
        _ = poll(&fds, nfds_t(fds.count), timeout)
        if fds[1].revents != 0 { mountsChanged = true }
    }

    private var mountsChanged = false

    /// Whether `descriptor` has `events` pending now (the mount table's change flag is consumed by poll).
    private func pollOnce(_ descriptor: Int32, _ events: Int16) -> Bool {
        if mountsChanged { mountsChanged = false; return true }
        var fd = pollfd(fd: descriptor, events: events, revents: 0)
        return descriptor >= 0 && poll(&fd, 1, 0) > 0 && fd.revents & events != 0
    }
}
