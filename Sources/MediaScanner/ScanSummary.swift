import MediaModel

/// What a scan did, for the text summary, `--json` and the exit status.
public struct ScanSummary: Sendable, Codable, Hashable {
    public struct Failure: Sendable, Codable, Hashable {
        public var path: MediaPath
        public var code: String
        public var message: String
    }
    public struct Problem: Sendable, Codable, Hashable {
        public var path: MediaPath
        public var reason: String
    }

    public var added = 0
    public var updated = 0
    public var moved = 0
    public var removed = 0
    /// Items an exclude list now leaves out: hidden, kept with their ids for when they are included again.
    public var excluded = 0
    public var unchanged = 0
    /// Paths met in this scan that are another path of a file met before (hard links): each is an item of
    /// its own, counted here because one edit shows under every path and a tag write that must rewrite
    /// the file refuses it.
    public var hardLinked = 0
    /// Unchanged files read again because an older mlib read them (`MediaProbe.readerVersion`): updated in
    /// place, keeping their ids and user data.
    public var reread = 0
    /// Files that failed to read in this scan (earlier failures of unchanged files count as unchanged).
    public var failed = 0
    /// Seconds.
    public var elapsed = 0.0
    public var filesPerSecond = 0.0
    public var failures: [Failure] = []
    /// Roots that are missing, not directories, or empty while items are indexed under them (unmounted):
    /// nothing under them was removed.
    public var missingRoots: [Problem] = []
    /// Directories that could not be read: nothing under them was removed.
    public var unreadableDirectories: [Problem] = []
    /// Items that vanished and that several new files (or a new file that several of them, or a new file that
    /// also has an item's audio that is still there) could be by weaker evidence than the content (the same
    /// audio, or tags): possible moves. No guess was made (`Moves`), so they
    /// went as deleted items go: removed by a scan of every root, with their user data (hidden by a
    /// partial scan), the new files new items. Named so that the user can give that data again.
    public var ambiguousMoves: [MediaPath] = []
    /// Stopped by a signal: the batches committed so far are in the index; removals and moves were not done.
    public var interrupted = false
    /// Playlist files found under the roots, in walk order; the caller imports them (`SQLiteIndex.syncPlaylist`).
    public var playlistFiles: [MediaPath] = []
    /// Roots walked to the end with nothing in doubt (a mirrored playlist whose file is not in
    /// `playlistFiles` and lies under one of them is gone).
    public var completeRoots: [MediaPath] = []

    public var filesSeen: Int { added + updated + reread + moved + unchanged + failed }
    /// Something needs the user's attention (exit status 1).
    public var hasProblems: Bool { failed > 0 || !missingRoots.isEmpty || !unreadableDirectories.isEmpty }
}

/// A snapshot for a progress display.
public struct ScanProgress: Sendable {
    /// Files found so far (probed or found unchanged).
    public var filesSeen: Int
    /// Files read by the probe so far.
    public var filesProbed: Int
    /// How many files the index held under the roots before this scan (an estimate of the total), or nil.
    public var expectedFiles: Int?
    public var elapsed: Double
    public var directory: MediaPath
}
