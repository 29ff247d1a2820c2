import Foundation
import MediaModel
import Playback

/// The terminal side of `mlib play`: raw keys in, one status line out.
enum PlayKey: Equatable {
    case togglePause, next, previous, seekBack, seekForward, shuffle, repeatMode, volumeUp, volumeDown, quit
    /// `]` and `[`: a book's chapters (`PlayChapters`).
    case nextChapter, previousChapter

    /// Decodes bytes read from a raw-mode terminal (arrow keys arrive as ESC [ C / ESC [ D).
    static func parse(_ bytes: [UInt8]) -> [PlayKey] {
        var keys: [PlayKey] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                switch bytes[i + 2] {
                case UInt8(ascii: "C"): keys.append(.seekForward)
                case UInt8(ascii: "D"): keys.append(.seekBack)
                case UInt8(ascii: "A"): keys.append(.volumeUp)
                case UInt8(ascii: "B"): keys.append(.volumeDown)
                default: break
                }
                i += 3
                continue
            }
            switch bytes[i] {
            case UInt8(ascii: " "): keys.append(.togglePause)
            case UInt8(ascii: "n"): keys.append(.next)
            case UInt8(ascii: "p"): keys.append(.previous)
            case UInt8(ascii: "s"): keys.append(.shuffle)
            case UInt8(ascii: "r"): keys.append(.repeatMode)
            case UInt8(ascii: "+"), UInt8(ascii: "="): keys.append(.volumeUp)
            case UInt8(ascii: "-"): keys.append(.volumeDown)
            case UInt8(ascii: "]"): keys.append(.nextChapter)
            case UInt8(ascii: "["): keys.append(.previousChapter)
            case UInt8(ascii: "q"), 0x03, 0x04: keys.append(.quit)   // q, ^C, ^D
            default: break
            }
            i += 1
        }
        return keys
    }
}

/// Puts the terminal in raw mode (no echo, no line buffering, no signals: ^C arrives as a key) and
/// gives it back as it was.
final class RawTerminal: @unchecked Sendable {
    private var saved = termios()
    private let fd: Int32

    init?(fd: Int32 = STDIN_FILENO) {
        self.fd = fd
        guard isatty(fd) == 1, tcgetattr(fd, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return nil }
        FileHandle.standardOutput.write(Data("\u{1B}[?25l".utf8))   // hide the cursor
    }

    func restore() {
        tcsetattr(fd, TCSANOW, &saved)
        FileHandle.standardOutput.write(Data("\r\u{1B}[J\u{1B}[?25h".utf8))   // the status line and the lyrics rows under it
    }

    /// Reads keys on a thread of its own (a blocking read must not hold a task) until `handler` says stop.
    func readKeys(_ handler: @escaping @Sendable (PlayKey) -> Bool) {
        let fd = self.fd
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { if n < 0 && errno == EINTR { continue }; _ = handler(.quit); return }
                for key in PlayKey.parse(Array(buffer[..<n])) where !handler(key) { return }
            }
        }
        thread.start()
    }
}

/// The status line: state, now playing, time / duration, queue position, modes; redrawn in place.
enum StatusLine {
    static func render(_ s: PlayerStatus, width: Int) -> String {
        let symbol = switch s.playbackState {
        case .playing: "▶"
        case .paused: "⏸"
        case .stopped: "■"
        case .interrupted: "!"
        case .seekingForward: "⏩"
        case .seekingBackward: "⏪"
        }
        let title = s.nowPlayingItem.map(PlayLines.title) ?? "—"
        let time = "\(PlayLines.clock(s.currentPlaybackTime)) / \(s.duration > 0 ? PlayLines.clock(s.duration) : "?:??")"
        let position = s.playOrderNumber.map { "\($0)/\(s.queueCount)" } ?? "-/\(s.queueCount)"
        var modes: [String] = []
        if s.repeatMode != .none { modes.append("repeat \(s.repeatMode.rawValue)") }
        if s.shuffleMode != .off { modes.append("shuffle \(s.shuffleMode.rawValue)") }
        if s.volume < 1 { modes.append("vol \(Int((s.volume * 100).rounded()))%") }
        let tail = "  \(time)  [\(position)]" + (modes.isEmpty ? "" : "  " + modes.joined(separator: " · "))
        let head = "\(symbol) \(s.playbackState.rawValue)  "
        let room = max(8, width - head.count - tail.count - 1)
        let shown = title.count > room ? String(title.prefix(room - 1)) + "…" : title
        return head + shown + tail
    }

    /// Columns of the terminal on `fd`, 80 if unknown.
    static func width(fd: Int32 = STDOUT_FILENO) -> Int {
        var size = winsize()
        return ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }
}

/// Text shared by the status line, the one-line-per-item output and `--dry-run`.
enum PlayLines {
    static func title(_ item: MediaItem) -> String {
        if let artist = item.artist ?? item.albumArtist { return "\(artist) — \(item.displayTitle)" }
        return item.displayTitle
    }

    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?:??" }
        let s = Int(seconds)
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                         : String(format: "%d:%02d", s / 60, s % 60)
    }
}
