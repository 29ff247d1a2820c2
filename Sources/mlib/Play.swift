import ArgumentParser
import Foundation
import Library
import MediaIndex
import MediaModel
import MediaProbe
import MediaScanner
import Playback

/// `mlib play`: a queue from the library (or from files), played by `MusicPlayer` into a sink.
struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play items from the library, or files, through a queue player.",
        discussion: """
            QUERY selects items as in `mlib ls` (short terms such as artist:Björk, or a predicate such as \
            'genre == "Jazz" AND year < 1970'); no QUERY plays the whole library. With --files the \
            arguments are file paths instead, and no library is needed; a directory stands for the media \
            files below it, in path order (as mlib info reads it). --dry-run lists the queue in play order \
            and marks with ▶ the item that plays first.

            On a terminal a status line shows the state, the item, time / duration and the queue position; \
            keys: space pause/resume, n next, p previous (back to the start of the item after 3 s), \
            ←/→ seek 10 s, [/] previous/next chapter (mlib info --chapters lists them), ↑/↓ or +/- volume, \
            s shuffle (off → songs → albums), r repeat (none → all → one), q quit. Without a terminal it plays through and prints one line per item.

            Synced lyrics follow the music (the item's preferred synced set, as mlib lyrics chooses it: \
            stored by the scan for a library item, read from the file and its sidecars for one that is \
            not indexed): on a terminal the current line and the next show under the status line, each \
            as its time is reached; without a terminal, --lyrics prints each line as it is reached, \
            "♪ [mm:ss.xxx] text" (its start as mlib lyrics --lrc writes it), between the item lines. \
            --no-lyrics shows none.

            A play is counted (playCount, lastPlayedDate) when an item plays to its end or past half its \
            length or 4 minutes; a skip (skipCount) when n or p leaves an item within its first 20 seconds.

            Sinks: auto (PulseAudio/PipeWire if a server is reachable, else an error), null (discard at \
            real-time speed), null:fast (discard as fast as decoding goes), wav:FILE, pcm (s16le 44.1 kHz \
            stereo on standard output, e.g. | aplay -f cd). A device plays each file at its own rate and \
            depth (16, 24, 32-bit or float); a WAV file takes the first item's rate, channels and depth \
            (16-bit for lossy files) and converts the rest to it.

            --replay-gain applies the items' ReplayGain tags: track (each item's gain), album (the album's \
            gain, so an album keeps its dynamics), auto (album, or track when shuffled by songs); the peak \
            tag keeps the result from clipping. Items without tags play unchanged.

            An item whose codec this FFmpeg cannot decode (mlib ls 'decodable == NO': AC-4, MPEG-H 3D \
            audio, 32-bit FLAC before FFmpeg 6.1) is skipped with one line saying so ("this FFmpeg cannot \
            decode ac-4"); the others play.

            Books (genre Audiobook, Podcast, Spoken…; M4B files; items longer than 30 minutes) resume where \
            the user left them: the position is saved on pause, stop and quit and every 30 s while one \
            plays, and the next mlib play of it starts there (--no-resume: from the beginning). --chapter \
            N starts the first item at its Nth chapter (mlib info --chapters lists them).

            --radio keeps the queue going: when the last item of the queue plays, ten songs like the last \
            five are added after it, until the library has no more like them (similar songs, as in \
            Recommendations in mlib(1): your own listening sessions first). Without a query it starts from \
            your five most recent plays. With --dry-run the queue is listed with the first ten added.

            Examples:
              mlib play artist:Björk --shuffle albums
              mlib play 'genre == "Jazz"' --sort year --repeat all
              mlib play --files a.flac b.mp3 --sink wav:out.wav
              mlib play genre:Classical --replay-gain album
              mlib play album:Vespertine --sink pcm | aplay -f cd
              mlib play --files --chapter 3 book.m4b
              mlib play --radio title:Joga

            \(ExitStatus.help(one: "nothing to play, an item could not be played, or the audio output failed", interruptible: true))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Argument(help: ArgumentHelp("A query (as for mlib ls), or file paths with --files.", valueName: "query"),
              completion: Completions.queryTerms)
    var terms: [String] = []

    @Flag(help: "Treat the arguments as audio files or directories to play (looked up in the library when present there).")
    var files = false

    @Option(help: ArgumentHelp("Play a stored playlist.", valueName: "name"), completion: Completions.playlistNames)
    var playlist: String?

    @OptionGroup var sortOptions: SortOptions

    @Option(parsing: .unconditional, help: "Queue at most this many items.")
    var limit: Int?

    @Option(help: ArgumentHelp("Shuffle the play order: songs, or albums (each album in track order).", valueName: "mode"))
    var shuffle: ShuffleMode?

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Repeat one item or all of the queue.", valueName: "mode"))
    var repeatMode: RepeatMode?

    @Option(help: ArgumentHelp("Where the audio goes: auto, null, null:fast, wav:FILE, pcm.", valueName: "sink"))
    var sink: SinkSpec = .auto

    @Option(parsing: .unconditional, help: ArgumentHelp("Start with the Nth item of the queue (1-based, in query order).", valueName: "n"))
    var start: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Initial volume, 0–100.", valueName: "percent"))
    var volume: Int = 100

    @Option(help: ArgumentHelp("Apply ReplayGain (the tags, else the gain mlib analyze measured): off, track, album, or auto (album unless shuffled by songs).", valueName: "mode"))
    var replayGain: ReplayGainMode = .off

    @Option(help: "Seed for the shuffle (the same seed gives the same order).")
    var seed: UInt64?

    @Flag(help: "Record plays and skips in the library with any sink: by default only playback on a device (auto, pulse) counts, not a null, WAV or PCM rendering.")
    var recordPlays = false

    @Flag(help: "Print the queue in play order, the first item to play marked ▶, and exit.")
    var dryRun = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Start the first item at its Nth chapter (1-based; mlib info --chapters lists them).", valueName: "n"))
    var chapter: Int?

    @Flag(inversion: .prefixedNo, help: "Show synced lyrics as they are reached (default: under the status line on a terminal, not printed otherwise).")
    var lyrics: Bool?
    @Flag(help: "When the queue runs out, keep going with songs like the last ones (without a query: like your recent plays).")
    var radio = false

    @Flag(help: "Neither resume a book where it was left nor save where it is (see BOOKS AND RESUME in mlib(1)).")
    var noResume = false

    func validate() throws {
        if files && terms.isEmpty { throw ValidationError("--files needs at least one file") }
        if sink == .pcm, !dryRun, isatty(STDOUT_FILENO) == 1 {
            throw ValidationError("--sink pcm writes raw audio to standard output, which is a terminal: pipe it (| aplay -f cd) or redirect it")
        }
        if files && playlist != nil { throw ValidationError("--files and --playlist cannot be combined") }
        if let start, start < 1 { throw ValidationError("--start counts from 1") }
        if let chapter, chapter < 1 { throw ValidationError("--chapter counts from 1") }
        if !(0...100).contains(volume) { throw ValidationError("--volume must be 0–100") }
        if radio && files { throw ValidationError("--radio plays from the library: not with --files") }
        if radio && repeatMode != nil { throw ValidationError("--radio and --repeat: choose one (a radio does not run out)") }
    }

    func run() async throws {
        let spec = sink
        let library = try openLibrary()
        // Plays are recorded as the user's (--user, MLIB_USER; else the owner's); an unknown one is refused first.
        let user = try library.map { try libraryOptions.dataUser($0) } ?? nil
        let radio = try library.flatMap { self.radio ? try Radio(library: $0, user: libraryOptions.userName) : nil }
        let (items, leftOut) = try radio.flatMap { try radioStart($0) } ?? queueItems(library)
        // Another host's item is its file: playing the file at that path here would count a play on it.
        try library?.requireThisHost(items, doing: "play")
        guard !items.isEmpty else { throw CLIError.nothingMatches(files ? "nothing to play" : "nothing to play: no item matches") }
        if let start, start > items.count {
            throw ValidationError("--start \(start) is past the end of the queue (\(items.count) items)")
        }

        let output = try (dryRun ? SinkSpec.null(realTime: false) : spec).open()
        let player = MusicPlayer(sink: output, seed: seed)
        player.setQueue(with: items)
        if let start { player.setNowPlayingItem(at: start - 1) } else { player.prepareToPlay() }
        if let shuffle { player.shuffleMode = shuffle }
        if let repeatMode { player.repeatMode = repeatMode }
        player.volume = Float(volume) / 100
        player.replayGainMode = replayGain
        try startPosition(player, library: library, user: user)

        if dryRun {
            if let radio { RadioRefill(radio: radio).refill(player) }
            try player.close()
            printQueue(player.queue, order: player.playOrder, start: player.status.playOrderNumber)
            if leftOut > 0 { throw ExitCode(ExitStatus.partialFailure) }
            return
        }
        let session = PlaySession(player: player, library: library, user: user, recordsStatistics: recordPlays || spec.isListenedTo,
                                  linesToStandardError: spec.usesStandardOutput)
        session.savesResume = !noResume
        session.showsLyrics = lyrics
        session.radio = radio.map { RadioRefill(radio: $0) }
        let failures = await session.run()
        if session.readerWentAway {
            // `play --sink pcm | head -c 1000`: the reader has what it wanted. Every other command is ended
            // by SIGPIPE there (status 141, no message); the PCM sink ignores SIGPIPE so that the terminal is
            // restored and the statistics written first, then ends the same way.
            try? player.close()
            throw ExitCode(ExitStatus.brokenPipe)
        }
        try player.close(drain: true)   // a WAV file that cannot be finished: SinkError, status 1
        if session.outputFailed || failures > 0 || leftOut > 0 { throw ExitCode(ExitStatus.partialFailure) }
        if session.interrupted { throw ExitCode(ExitStatus.interrupted) }
    }

    /// Where the first item starts: at --chapter's start, else, for a book (`SpokenWord`), where the user left
    /// it (`Library.resumePosition`), said on standard error.
    private func startPosition(_ player: MusicPlayer, library: Library?, user: String?) throws {
        guard let item = player.nowPlayingItem else { return }
        if let chapter {
            let chapters = try MediaProbe.probe(item.path).chapters
            guard chapter <= chapters.count else {
                throw ValidationError("--chapter \(chapter): \(item.path) has \(chapters.count) chapter\(chapters.count == 1 ? "" : "s")")
            }
            player.currentPlaybackTime = chapters[chapter - 1].start
            return
        }
        guard !noResume, let library, let position = try library.resumePosition(of: item, user: user) else { return }
        player.currentPlaybackTime = position
        printError("resuming \(PlayLines.title(item)) at \(PlayLines.clock(position)) (--no-resume starts at the beginning)")
    }

    /// A radio without a query or playlist: songs like the user's most recent plays (nil: the query's).
    private func radioStart(_ radio: Radio) throws -> (items: [MediaItem], leftOut: Int)? {
        guard terms.isEmpty, playlist == nil else { return nil }
        let recent = try radio.recentPlays()
        guard !recent.isEmpty else {
            throw CLIError.nothingMatches("nothing to play: --radio without a query starts from your recent plays, and there are none")
        }
        return (try radio.songs(like: recent, excluding: [], count: Radio.batch), 0)
    }

    /// The library, if one is needed or exists: playing files works without one.
    private func openLibrary() throws -> Library? {
        do { return try libraryOptions.library() } catch IndexError.noLibrary(_) where files { return nil }
    }

    /// The queue, and how many of the given files or folders were left out (missing, unreadable): each
    /// was one line on stderr, and they make the status 1 (as `mlib info`'s), though the rest plays.
    private func queueItems(_ library: Library?) throws -> (items: [MediaItem], leftOut: Int) {
        if files { return try fileItems(library?.store) }
        guard let library else { return ([], 0) }
        if let playlist { return (try library.items(of: try library.store.requirePlaylist(playlist)), 0) }
        var query = try PlaylistQuery.query(terms, sort: sortOptions, limit: limit)
        query.filter = try library.predicate(query.filter, for: libraryOptions.userName)
        return (try library.items(query), 0)
    }

    /// Files from the command line: the library's item when the path is indexed (so statistics are kept),
    /// else an item with just the path. A directory stands for the media files below it in path order, as
    /// `mlib info DIR` reads it (mpc and mpv add a whole folder). Missing files are one line each and are
    /// left out.
    private func fileItems(_ index: (any LibraryStore)?) throws -> (items: [MediaItem], leftOut: Int) {
        var items: [MediaItem] = []
        var leftOut = 0
        // By their bytes: a name that is not UTF-8 reaches the file system intact.
        for path in RawArguments.paths(terms).flatMap({ Self.filesBelow($0, leftOut: &leftOut) }) {
            guard path.existsOnDisk else {
                printError("\(path): no such file")
                leftOut += 1
                continue
            }
            // As indexed: by its real path (roots are stored resolved), or as given below the current folder.
            let given = path.bytes.first == UInt8(ascii: "/") ? path : MediaPath(FileManager.default.currentDirectoryPath).appending(path)
            if let index, let indexed = try index.item(path: Scan.absolutePath(path)) ?? index.item(path: given) {
                items.append(indexed)
                continue
            }
            // Not indexed: read its tags and duration now, so the status line has them.
            if let probed = try? MediaProbe.probe(path) { items.append(probed.item); continue }
            var item = MediaItem(path: path)
            item.title = path.lastComponent.string
            items.append(item)
        }
        return (Array(items.prefix(limit ?? .max)), leftOut)
    }

    /// `argument`, or the media files below it when it is a directory (`MediaFileListing`, as mlib scan and
    /// mlib info find them); its unreadable folders are one line each.
    private static func filesBelow(_ argument: MediaPath, leftOut: inout Int) -> [MediaPath] {
        guard argument.isDirectoryOnDisk else { return [argument] }
        let listing = MediaFileListing(under: argument)
        listing.unreadableDirectories.forEach { printError($0.description) }
        leftOut += listing.unreadableDirectories.count
        return listing.files
    }

    /// The queue in play order, one line each; `start` (1-based, in play order) is marked `▶`, as the
    /// play lines mark the item playing: with --start, the items before it are not played.
    private func printQueue(_ queue: [MediaItem], order: [Int], start: Int?) {
        var out = StandardOutput()
        let width = String(order.count).count
        for (n, index) in order.enumerated() {
            let item = queue[index]
            let duration = item.playbackDuration > 0 ? PlayLines.clock(item.playbackDuration) : "?:??"
            let album = item.albumTitle.map { "  (\($0))" } ?? ""
            let mark = n + 1 == start ? "▶ " : "  "
            out.write("\(mark)\(String(n + 1).leftPadded(width))  \(duration.leftPadded(7))  \(PlayLines.title(item))\(album)\n")
        }
        out.flush()
    }
}

extension ReplayGainMode: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
