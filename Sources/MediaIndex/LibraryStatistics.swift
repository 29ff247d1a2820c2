import MediaModel

/// Totals over the library, for `mlib stats`.
public struct LibraryStatistics: Sendable, Hashable, Codable {
    public struct Count: Sendable, Hashable, Codable {
        public var name: String
        public var count: Int
            package init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
}
    public var items: Int
    /// Seconds.
    public var totalDuration: Double
    /// Bytes.
    public var totalSize: Int64
    public var byMediaType: [Count]
    /// By FFmpeg's demuxer name ("mov,mp4,m4a,3gp,3g2,mj2").
    public var byContainer: [Count]
    /// By clean file type (mp3, m4a, m4b, mp4, mkv, opus…): what `mlib stats` prints.
    public var byFileType: [Count]
    /// Items read only in part (damaged, truncated, a tag with no audio).
    public var partial: Int
    public var failures: Int
    public var roots: [MediaPath]
    public var playlists: Int
    package init(items: Int, totalDuration: Double, totalSize: Int64, byMediaType: [Count], byContainer: [Count],
                 byFileType: [Count], partial: Int, failures: Int, roots: [MediaPath], playlists: Int) {
        self.items = items
        self.totalDuration = totalDuration
        self.totalSize = totalSize
        self.byMediaType = byMediaType
        self.byContainer = byContainer
        self.byFileType = byFileType
        self.partial = partial
        self.failures = failures
        self.roots = roots
        self.playlists = playlists
    }
}
