import Foundation
import Library
import MediaModel
import MediaProbe
import Playback

/// One run of `mlib play` after the queue is set: one serial loop over player events, keys, redraw
/// ticks and ^C; writes play statistics back to the library as items end.
final class PlaySession: @unchecked Sendable {
    private enum Input {
        case event(PlayerEvent)
        case key(PlayKey)
        case tick
        case interrupt
        /// Every `SpokenWord.saveInterval` seconds: a book's position is saved (`Library.saveResumePosition`).
        case saveResume
        /// A synced lyrics line's start was reached (`PlayLyrics.untilNextChange`).
        case lyricsLine
    }

    let player: MusicPlayer
    let library: Library?
    /// Whether plays and skips go to the library (`SinkSpec.isListenedTo`, or --record-plays).
    let recordsStatistics: Bool
    let linesToStandardError: Bool
    private(set) var outputFailed = false
    /// The output failed because standard output is a pipe whose reader closed it (`| head -c 1000`).
    private(set) var readerWentAway = false
    private(set) var interrupted = false
    private var statisticsFailed = false
    /// The play-order number (1-based) of the item of the last item line.
    private var lastPlayOrderNumber: Int?

    /// Whose plays they are (an account's name; nil: the library's owner).
    let user: String?
    /// Whether books' positions are saved (on pause, stop, quit, every 30 s) for `mlib play` to resume.
    var savesResume = true
    private var resumeFailed = false
    /// Whether synced lyrics follow the music: nil shows them on a terminal only (two rows under the status
    /// line); true also prints each line as it is reached off a terminal (`--lyrics`); false never (`--no-lyrics`).
    var showsLyrics: Bool?
    private var lyrics = PlayLyrics()
    private var chapterCache: (path: MediaPath, chapters: [ChapterInfo])?
    /// --radio: songs like the last ones are added when the queue runs out.
    var radio: RadioRefill?
    /// The user quit (q, ^C): the radio adds nothing more.
    private var quitting = false

    init(player: MusicPlayer, library: Library?, user: String? = nil, recordsStatistics: Bool, linesToStandardError: Bool) {
        self.player = player
        self.library = library
        self.user = user
        self.recordsStatistics = recordsStatistics
        self.linesToStandardError = linesToStandardError
    }

    /// Plays until the queue ends or the user quits; returns how many items failed to decode.
    func run() async -> Int {
        let (inputs, feed) = AsyncStream<Input>.makeStream()
        let observer = player.addObserver { feed.yield(.event($0)) }
        defer { player.removeObserver(observer) }

        let terminal = isatty(STDOUT_FILENO) == 1 && !linesToStandardError ? RawTerminal() : nil
        if let terminal {
            terminal.readKeys { key in feed.yield(.key(key)); return key != .quit }
        }
        // ^C without a terminal in raw mode: stop cleanly (a WAV file still gets its header).
        let interrupts = TerminationSignals([SIGINT])
        let interruptWatch = Task {
            await interrupts.wait()   // also returns when the session ends and cancels this task: no interrupt then
            if !Task.isCancelled { feed.yield(.interrupt) }
        }
        defer { interruptWatch.cancel(); interrupts.cancel() }
        let ticker = terminal.map { _ in
            Task {
                while !Task.isCancelled {
                    feed.yield(.tick)
                    try? await Task.sleep(for: .milliseconds(250))
                }
            }
        }

        let saver = library != nil && savesResume ? Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(SpokenWord.saveInterval))
                feed.yield(.saveResume)
            }
        } : nil
        defer { saver?.cancel() }

        // Synced lyrics: a timer armed for the next line's start after every input (re-armed only when that
        // moves), so a line shows at its time, not at the next 250 ms tick.
        let followsLyrics = showsLyrics ?? (terminal != nil)
        var lyricsTimer: Task<Void, Never>?
        var lyricsDeadline: ContinuousClock.Instant?
        func armLyricsTimer() {
            let wait = player.status.playbackState.isAdvancing ? lyrics.untilNextChange(at: player.currentPlaybackTime) : nil
            let deadline = wait.map { ContinuousClock.now + $0 }
            if let deadline, let armed = lyricsDeadline, abs((deadline - armed) / .milliseconds(1)) < 1 { return }
            lyricsTimer?.cancel()
            lyricsDeadline = deadline
            lyricsTimer = deadline.map { deadline in
                Task {
                    guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                    feed.yield(.lyricsLine)
                }
            }
        }
        defer { lyricsTimer?.cancel() }

        var failures = 0
        // The first item became current before this loop listened (prepareToPlay / --start).
        if followsLyrics { lyrics.load(player.nowPlayingItem, library: library) }
        if terminal == nil, let first = player.nowPlayingItem { printItemLine(first) }
        player.play()
        loop: for await input in inputs {
            switch input {
            case .tick:
                break
            case .lyricsLine:
                lyricsDeadline = nil
            case .saveResume:
                if player.status.playbackState.isAdvancing { saveResume() }
            case .interrupt:
                interrupted = true
                quitting = true
                player.stop()
            case .key(let key):
                if !handle(key) {
                    quitting = true
                    player.stop()
                }
            case .event(.itemDidEnd(let end)):
                record(end)
                saveResume(end)
            case .event(.playbackStateDidChange(.paused)):
                saveResume()
            case .event(.nowPlayingItemDidChange(let item?)):
                if followsLyrics { lyrics.load(item, library: library) }
                if terminal == nil { printItemLine(item) }
                // The last item of the queue: the radio adds the next ones now, so that they follow gaplessly.
                if !quitting, let radio, let number = player.status.playOrderNumber, number >= player.status.queueCount {
                    radio.refill(player)
                }
            case .event(.itemDidFail(_, let message)):
                failures += 1
                say("mlib: \(message) (skipped)", error: true, terminal: terminal != nil)
            case .event(.outputDidFail(let message)):
                outputFailed = true
                readerWentAway = linesToStandardError && Self.standardOutputHasNoReader()
                if !readerWentAway { say("mlib: \(message)", error: true, terminal: terminal != nil) }
                player.stop()
                break loop
            case .event(.playbackStateDidChange(.stopped)):
                // The queue ran out before the radio's songs came: start them.
                if player.nowPlayingItem == nil, !quitting, let radio {
                    let first = player.queue.count
                    if radio.refill(player) {
                        player.setNowPlayingItem(at: first)
                        player.play()
                        continue loop
                    }
                }
                if player.nowPlayingItem == nil { break loop }
            case .event:
                break
            }
            if followsLyrics {
                if terminal == nil, let line = lyrics.reached(at: player.currentPlaybackTime) {
                    say(PlayLyrics.printed(line), error: linesToStandardError, terminal: false)
                }
                armLyricsTimer()
            }
            if terminal != nil { drawStatus() }
        }
        ticker?.cancel()
        terminal?.restore()
        return failures
    }

    /// True when standard output is a pipe with no reader left: poll(2) reports POLLERR on the write end.
    static func standardOutputHasNoReader() -> Bool {
        var descriptor = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLERR) != 0
    }

    /// Acts on a key; false means quit.
    private func handle(_ key: PlayKey) -> Bool {
        let status = player.status
        switch key {
        case .quit:
            return false
        case .togglePause:
            if status.playbackState.isAdvancing { player.pause() } else { player.play() }
        case .next:
            player.skipToNextItem()
        case .previous:
            // As music players do: back to the start of the item first; and never off the front of the queue.
            if status.currentPlaybackTime > 3 || status.playOrderNumber == 1 { player.skipToBeginning() }
            else { player.skipToPreviousItem() }
        case .seekBack:
            player.currentPlaybackTime = max(0, status.currentPlaybackTime - 10)
        case .seekForward:
            if status.duration > 0 && status.currentPlaybackTime + 10 >= status.duration { player.skipToNextItem() }
            else { player.currentPlaybackTime = status.currentPlaybackTime + 10 }
        case .shuffle:
            player.shuffleMode = switch status.shuffleMode { case .off: .songs; case .songs: .albums; case .albums: .off }
        case .repeatMode:
            player.repeatMode = switch status.repeatMode { case .none: .all; case .all: .one; case .one: .none }
        case .volumeUp:
            player.volume = min(1, status.volume + 0.1)
        case .volumeDown:
            player.volume = max(0, status.volume - 0.1)
        case .nextChapter:
            let chapters = chapters(of: status.nowPlayingItem)
            if let start = PlayChapters.next(chapters, from: status.currentPlaybackTime) { player.currentPlaybackTime = start }
            else if !chapters.isEmpty { player.skipToNextItem() }      // past the last chapter: the book's next part
        case .previousChapter:
            if let start = PlayChapters.previous(chapters(of: status.nowPlayingItem), from: status.currentPlaybackTime) {
                player.currentPlaybackTime = start
            }
        }
        return true
    }

    /// The chapters of `item`'s file, read once per item (a probe: only when a chapter key asks).
    private func chapters(of item: MediaItem?) -> [ChapterInfo] {
        guard let item else { return [] }
        if let cached = chapterCache, cached.path == item.path { return cached.chapters }
        let chapters = (try? MediaProbe.probe(item.path).chapters) ?? []
        chapterCache = (item.path, chapters)
        return chapters
    }

    /// Play statistics, by the library's one rule (`Library.record`).
    private func record(_ end: ItemEnd) {
        guard recordsStatistics, let library else { return }
        do {
            try library.record(end, front: .play, user: user)
        } catch {
            if !statisticsFailed { printError("cannot record play statistics: \(error)") }
            statisticsFailed = true
        }
    }

    /// A book's position now (paused, or the periodic save).
    private func saveResume() {
        guard let item = player.nowPlayingItem else { return }
        resume { try $0.saveResumePosition(player.currentPlaybackTime, of: item, user: user) }
    }

    /// A book that ended: finished, its saved position goes; stopped or left, where it was is saved.
    private func saveResume(_ end: ItemEnd) {
        switch end.reason {
        case .finished: resume { try $0.finishedBook(end.item, user: user) }
        case .stopped, .skipped: resume { try $0.saveResumePosition(end.position, of: end.item, user: user) }
        case .removed, .failed: break
        }
    }

    private func resume(_ body: (Library) throws -> Void) {
        guard savesResume, let library else { return }
        do {
            try body(library)
        } catch {
            if !resumeFailed { printError("cannot save the position to resume from: \(error)") }
            resumeFailed = true
        }
    }

    private func printItemLine(_ item: MediaItem) {
        // Off a terminal there are no keys, so items start in play order from the first one (the item
        // --start chose, read before play() begins): step from it rather than read the player's live
        // position, which a fast sink has already moved past this item. Repeat one plays the same item.
        let count = max(1, player.status.queueCount)
        let number: Int
        if let last = lastPlayOrderNumber {
            number = player.repeatMode == .one ? last : last % count + 1
        } else {
            number = player.status.playOrderNumber ?? 1
        }
        lastPlayOrderNumber = number
        let position = "\(number)/\(count)"
        let duration = item.playbackDuration > 0 ? "  (\(PlayLines.clock(item.playbackDuration)))" : ""
        say("▶ \(position)  \(PlayLines.title(item))\(duration)", error: linesToStandardError, terminal: false)
    }

    private func say(_ line: String, error: Bool, terminal: Bool) {
        // On a terminal: over the status line and the lyrics rows under it (erased to the end of the screen).
        let text = (terminal ? "\r\u{1B}[J" : "") + line + "\n"
        (error ? FileHandle.standardError : FileHandle.standardOutput).write(Data(text.utf8))
    }

    /// The status line, and under it the current and next synced lyrics lines when the item has them; the
    /// cursor goes back to the status line's start, so the next draw overwrites all three rows.
    private func drawStatus() {
        let width = StatusLine.width()
        let status = player.status
        var text = "\r\u{1B}[J" + StatusLine.render(status, width: width)
        if let lines = lyrics.lines(at: status.currentPlaybackTime) {
            let rows = PlayLyrics.rows(lines, width: width)
            text += rows.map { "\r\n" + $0 }.joined() + "\u{1B}[\(rows.count)A\r"
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
