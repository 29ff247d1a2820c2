/// How `LibraryWatcher` turns events into scans. Times are in seconds.
public struct WatchOptions: Sendable {
    /// Quiet time after the last event before the changed directories are scanned.
    public var debounce: Double = 1
    /// A stream of events that never pauses is scanned at least this often.
    public var maxDelay: Double = 10
    /// A file created or written and not yet closed is read once closed, or once it saw no event for this
    /// long (a writer that keeps its file open).
    public var stableAfter: Double = 5
    /// At most this many inotify watches (nil: as many as the kernel allows, see
    /// /proc/sys/fs/inotify/max_user_watches); directories beyond are rescanned every `fallbackInterval`.
    public var maxWatches: Int?
    public var fallbackInterval: Double = 300
    /// How often a root that vanished (deleted, renamed) is looked for again.
    public var retryInterval: Double = 5
    /// Scan every watched directory when starting (what changed while nothing watched).
    public var initialScan = true

    public init() {}
}
