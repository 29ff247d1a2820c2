import Foundation
import Library
import MediaModel
import MediaProbe
import Playback

/// `mlib play`'s synced lyrics: the set the now-playing item follows (`LyricsFollower`: the stored one for
/// an indexed item, no file opened; the file's own for one played with --files and not indexed), which line
/// is current, and when the display must change next, so the session wakes at each line's start instead of
/// on its 250 ms redraw tick.
struct PlayLyrics {
    private(set) var follower: LyricsFollower?
    /// The line last shown (printed off a terminal); nil: none yet for this item.
    private var shown: Int?

    /// Loads `item`'s lyrics (none when it has no synced set); what cannot be read is simply no lyrics.
    mutating func load(_ item: MediaItem?, library: Library?) {
        shown = nil
        follower = nil
        guard let item else { return }
        let sets: [Lyrics]
        if let library, item.persistentID != 0 {
            sets = (try? library.lyrics(ofItem: item.persistentID)) ?? []
        } else {
            sets = LyricsReader.read(item.path).lyrics
        }
        follower = LyricsFollower(choosingFrom: sets)
    }

    static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded(.down)) }

    /// The current and next lines at `seconds` (for the terminal display).
    func lines(at seconds: Double) -> (current: LyricsLine?, next: LyricsLine?)? {
        follower.map { $0.lines(at: Self.milliseconds(seconds)) }
    }

    /// The line reached since the last call, if the current line changed (off a terminal, one printed line each).
    mutating func reached(at seconds: Double) -> LyricsLine? {
        guard let follower, let index = follower.index(at: Self.milliseconds(seconds)), index != shown else { return nil }
        shown = index
        return follower.lines[index]
    }

    /// How long until the current line changes, playing from `seconds`; nil when it will not (no lyrics,
    /// past the last line).
    func untilNextChange(at seconds: Double) -> Duration? {
        let ms = Self.milliseconds(seconds)
        guard let next = follower?.nextChange(after: ms) else { return nil }
        return .milliseconds(max(1, next - ms))
    }

    /// The line as `mlib play --lyrics` prints it: `♪ [mm:ss.xxx] text` (the time as `mlib lyrics --lrc` writes it).
    static func printed(_ line: LyricsLine) -> String {
        "♪ [\(LRCParser.timeTag(line.startMs))] \(line.text)"
    }

    /// The two rows under the status line: the current line, bold, and the next one, dim; each cut to `width`.
    static func rows(_ lines: (current: LyricsLine?, next: LyricsLine?), width: Int) -> [String] {
        func cut(_ text: String, _ room: Int) -> String { text.count > room ? String(text.prefix(max(1, room - 1))) + "…" : text }
        let room = max(8, width - 5)
        return ["  ♪ \u{1B}[1m" + cut(lines.current?.text ?? "", room) + "\u{1B}[0m",
                "    \u{1B}[2m" + cut(lines.next?.text ?? "", room) + "\u{1B}[0m"]
    }
}
