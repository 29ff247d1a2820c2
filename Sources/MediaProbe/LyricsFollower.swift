/// Synced lyrics against a playback position: which line is current (the last one started), which comes
/// next, and when the display must change again. What `mlib play` shows under its status line and prints
/// with `--lyrics`; one rule, so a front that follows the music later (the MPD player, a web page) agrees.
/// Lines are `Lyrics.lines`, sorted by start (`LRCParser` sorts them); lines past the end of the audio are
/// kept, a player simply never reaches them.
public struct LyricsFollower: Sendable, Hashable {
    public let lyrics: Lyrics
    private let starts: [Int]

    /// nil for unsynced lyrics (nothing to follow).
    public init?(_ lyrics: Lyrics) {
        guard let lines = lyrics.lines, !lines.isEmpty else { return nil }
        self.lyrics = lyrics
        starts = lines.map(\.startMs)
    }

    /// The set a player follows among an item's lyrics: the preferred synced one (`LyricsReader.preferred`'s
    /// order, in `language` when given); nil when none is synced.
    public init?(choosingFrom sets: [Lyrics], language: String? = nil) {
        guard let chosen = LyricsReader.preferred(sets.filter(\.isSynced), language: language) else { return nil }
        self.init(chosen)
    }

    public var lines: [LyricsLine] { lyrics.lines ?? [] }

    /// The index of the line current at `ms` (the last whose start is at or before it); nil before the first.
    /// Several lines with the same start: the last of them (LRC's "several time tags" repeat a line at
    /// different times, never two lines at one).
    public func index(at ms: Int) -> Int? {
        var low = 0, high = starts.count           // first start > ms, by bisection
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= ms { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The current line and the one after it at `ms`; before the first line, no current line and the first as next.
    public func lines(at ms: Int) -> (current: LyricsLine?, next: LyricsLine?) {
        let lines = self.lines
        let current = index(at: ms)
        let nextIndex = current.map { $0 + 1 } ?? 0
        return (current.map { lines[$0] }, nextIndex < lines.count ? lines[nextIndex] : nil)
    }

    /// When the current line next changes after `ms` (the next line's start); nil after the last line.
    public func nextChange(after ms: Int) -> Int? {
        let nextIndex = index(at: ms).map { $0 + 1 } ?? 0
        return nextIndex < starts.count ? starts[nextIndex] : nil
    }
}
