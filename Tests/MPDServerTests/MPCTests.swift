import Foundation
import Testing
import TestSupport

/// `mlib serve` driven by the real `mpc` (libmpdclient), as a user would: end to end, null sink.
@Suite(.serialized, .enabled(if: toolExists("mpc") && toolExists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct MPCTests {
    @Test func queuePlaybackAndStatus() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }

        try #require(try server.mpc(["add", "Long"]).status == 0)
        try #require(try server.mpc(["add", "Album1/flac-vorbis-cover.flac"]).status == 0)
        #expect(try server.mpc(["-f", "%file%", "playlist"]).out
                == "Long/tone1.flac\nLong/tone2.flac\nAlbum1/flac-vorbis-cover.flac\n")

        let playing = try server.mpc(["play"]).out
        #expect(playing.contains("Sine Wave - Tone 1"))
        #expect(playing.contains("[playing] #1/3"))

        let paused = try server.mpc(["pause"]).out
        #expect(paused.contains("[paused]  #1/3"))
        #expect(try server.mpc(["status"]).out.contains("[paused]"))

        let next = try server.mpc(["next"]).out
        #expect(next.contains("Sine Wave - Tone 2"))
        #expect(next.contains("#2/3"))

        try server.mpc(["play"])
        // Time moves while playing: 0:01 within a few seconds (it slept 1.2 s and asserted before).
        let status = try Poll.value(timeout: 10, { try server.mpc(["status"]).out }) {
            $0.contains("[playing] #2/3") && !$0.contains("0:00/0:30")
        }
        #expect(status.contains("[playing] #2/3"))
        #expect(!status.contains("0:00/0:30"), "\(status)")

        try server.mpc(["stop"])
        #expect(!(try server.mpc(["status"]).out.contains("[playing]")))
        #expect(server.stop() == 0)   // SIGTERM: a clean exit
    }

    @Test func searchAndStoredPlaylists() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }

        #expect(try server.mpc(["search", "artist", "кино"]).out == "Album1/mp3-id3v24.mp3\nOther/ogg-vorbis.ogg\n")
        #expect(try server.mpc(["find", "album", "Long Tones"]).out == "Long/tone1.flac\nLong/tone2.flac\n")
        #expect(try server.mpc(["search", "(artist contains 'Sine')"]).out == "Long/tone1.flac\nLong/tone2.flac\n")
        #expect(try server.mpc(["list", "album"]).out == "Long Tones\nTest Pressing\nГруппа крови — Déjà vu\n")

        try server.mpc(["findadd", "artist", "Sine Wave"])
        #expect(try server.mpc(["save", "tones"]).status == 0)
        #expect(try server.mpc(["lsplaylists"]).out == "tones\n")
        // Saved through MPD, it is the library's playlist: mlib's own CLI lists its entries.
        let cli = try run(Paths.mlib.path, ["playlist", "show", "tones", "--library", library.library])
        #expect(cli.out.contains("Tone 1") && cli.out.contains("Tone 2"))

        try server.mpc(["clear"])
        #expect(try server.mpc(["playlist"]).out == "")
        try server.mpc(["load", "tones"])
        #expect(try server.mpc(["-f", "%title%", "playlist"]).out == "Tone 1\nTone 2\n")
        #expect(try server.mpc(["save", "tones"]).status != 0)   // already exists
        try server.mpc(["rm", "tones"])
        #expect(try server.mpc(["lsplaylists"]).out == "")
    }

    /// `mpc idle` in one client wakes when a second client changes the queue.
    @Test func idleWakesOnAnotherClientsChange() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }

        nonisolated(unsafe) var woke: String?
        let waiter = Thread { woke = try? server.mpc(["idle", "playlist"]).out }
        waiter.start()
        // What must not happen: idle answering before anything changed. 0.4 s gives mpc time to connect and
        // send `idle` (there is no sign from the server that it is waiting to watch for).
        usleep(400_000)
        #expect(woke == nil)   // still waiting
        try server.mpc(["add", "opus.opus"])
        Poll.until(timeout: 5, interval: 0.02) { waiter.isFinished }
        #expect(woke == "playlist\n")
    }

    /// A null sink is nobody listening: a play through it is not recorded, unless --record-plays.
    @Test(arguments: [false, true])
    func playsAreRecordedOnlyWhenListenedToOrAsked(recordPlays: Bool) throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library, extra: recordPlays ? ["--record-plays"] : [])
        defer { server.stop() }
        try server.mpc(["add", "opus.opus"])
        try server.mpc(["play"])
        // The 1 s item plays to its end; the statistics are written as it ends.
        let playCount = { try run(Paths.mlib.path, ["ls", "--library", library.library, "-f", "$playCount", "title:Opus"]).out }
        try Poll.until(timeout: 10) {
            try playCount() == "1\n" || (!recordPlays && !(try server.mpc(["status"]).out.contains("[playing]")))
        }
        // Not recording: the item has ended; a write would follow its end at once. 0.2 s for it to show if it
        // (wrongly) came.
        if !recordPlays { usleep(200_000) }
        let count = try playCount()
        #expect(count == (recordPlays ? "1\n" : "0\n"))
    }
}

/// Stickers are mlib's user data: `rating` is the library's rating, play counts are read-only.
@Suite(.enabled(if: toolExists("mpc") && toolExists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct StickerTests {
    @Test func ratingStickerIsTheLibrarysRating() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        #expect(try server.mpc(["sticker", "Long/tone1.flac", "set", "rating", "4"]).status == 0)
        #expect(try server.mpc(["sticker", "Long/tone1.flac", "get", "rating"]).out == "rating=4\n")
        #expect(try run(Paths.mlib.path, ["ls", "--library", library.library, "-f", "$title", "rating:4"]).out == "Tone 1\n")
        #expect(try server.mpc(["sticker", "Long/tone1.flac", "set", "mood", "x"]).status != 0)
        #expect(try server.mpc(["sticker", "Long", "find", "rating"]).out.contains("Long/tone1.flac: rating=4"))
        try server.mpc(["sticker", "Long/tone1.flac", "delete", "rating"])
        #expect(try server.mpc(["sticker", "Long/tone1.flac", "get", "rating"]).status != 0)
    }
}

/// `update` runs mlib's scanner; `mpc --wait update` returns when the idle `update` event says it ended.
@Suite(.enabled(if: toolExists("mpc") && toolExists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct UpdateTests {
    @Test func updateScansNewFiles() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let new = library.music.appendingPathComponent("New")
        try FileManager.default.createDirectory(at: new, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("opus.opus"),
                                         to: new.appendingPathComponent("again.opus"))
        #expect(try server.mpc(["ls", "New"]).status != 0)
        #expect(try server.mpc(["--wait", "update"]).status == 0)
        #expect(try server.mpc(["ls", "New"]).out == "New/again.opus\n")
        #expect(!(try server.mpc(["status"]).out.contains("Updating DB")))
    }

    /// A playlist file found by `update` becomes the library's playlist, as after `mlib scan` (was not
    /// mirrored: the mirroring lived in the CLI), and follows edits of the file on the next update.
    @Test func updateMirrorsPlaylistFiles() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let m3u = library.music.appendingPathComponent("Other/mix.m3u8")
        try "#EXTM3U\n../opus.opus\nogg-vorbis.ogg\nnot-there.flac\n".write(to: m3u, atomically: true, encoding: .utf8)
        #expect(try server.mpc(["--wait", "update"]).status == 0)
        // `mpc playlist NAME` prints "artist - title" for tagged songs (listplaylistinfo), so ask for paths.
        #expect(try server.mpc(["lsplaylists"]).out.split(separator: "\n").contains("mix"))
        #expect(try server.mpc(["-f", "%file%", "playlist", "mix"]).out == "opus.opus\nOther/ogg-vorbis.ogg\n")
        try "ogg-vorbis.ogg\n".write(to: m3u, atomically: true, encoding: .utf8)
        #expect(try server.mpc(["--wait", "update"]).status == 0)
        #expect(try server.mpc(["-f", "%file%", "playlist", "mix"]).out == "Other/ogg-vorbis.ogg\n")
    }

    /// A scan by another process (mlib scan, mlib watch) is seen without an update: the server reads the
    /// library again when its totals change.
    @Test func aScanByAnotherProcessIsSeen() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        #expect(try server.mpc(["ls"]).out == "opus.opus\nAlbum1\nLong\nOther\n")
        #expect(try server.mpc(["stats"]).out.contains("Songs:        7"))
        let new = library.music.appendingPathComponent("New")
        try FileManager.default.createDirectory(at: new, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("opus.opus"),
                                         to: new.appendingPathComponent("again.opus"))
        try #require(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q"]).status == 0)
        // The server looks at the library's totals at most every 0.5 s.
        let listed = try Poll.value(timeout: 10, { try server.mpc(["ls"]).out }) { $0.contains("New") }
        #expect(listed == "opus.opus\nAlbum1\nLong\nNew\nOther\n")
        #expect(try server.mpc(["stats"]).out.contains("Songs:        8"))
    }
}

/// Several roots: each is a top-level directory named after it; add, find and play go through it.
@Suite(.enabled(if: toolExists("mpc") && toolExists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct SeveralRootsTests {
    @Test func eachRootIsATopLevelDirectory() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let second = library.directory.appendingPathComponent("Podcasts")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("ogg-vorbis.ogg"),
                                         to: second.appendingPathComponent("episode.ogg"))
        try #require(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q", second.path]).status == 0)
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        // Names collated as mpd collates them (ICU's root order: "music" before "Podcasts").
        #expect(try server.mpc(["ls"]).out == "music\nPodcasts\n")
        #expect(try server.mpc(["ls", "Podcasts"]).out == "Podcasts/episode.ogg\n")
        #expect(try server.mpc(["ls", "music/Album1"]).out == "music/Album1/flac-vorbis-cover.flac\nmusic/Album1/mp3-id3v24.mp3\n")
        try server.mpc(["add", "Podcasts/episode.ogg"])
        #expect(try server.mpc(["-f", "%file%", "playlist"]).out == "Podcasts/episode.ogg\n")
        #expect(try server.mpc(["search", "artist", "кино"]).out == "Podcasts/episode.ogg\nmusic/Album1/mp3-id3v24.mp3\nmusic/Other/ogg-vorbis.ogg\n")
    }
}

/// consume and single, which MusicPlayer has no mode for: the server does them on the player's events.
@Suite(.enabled(if: toolExists("mpc") && toolExists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct ConsumeAndSingleTests {
    @Test func aFinishedSongLeavesTheQueue() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        try server.mpc(["consume", "on"])
        try server.mpc(["add", "opus.opus"])          // 1 s
        try server.mpc(["add", "Long/tone1.flac"])    // 30 s
        try server.mpc(["play"])
        let queue = try Poll.value(timeout: 10, { try server.mpc(["-f", "%file%", "playlist"]).out }) { $0 == "Long/tone1.flac\n" }
        #expect(queue == "Long/tone1.flac\n")
        #expect(try server.mpc(["status"]).out.contains("[playing] #1/1"))
    }

    /// single (without repeat): when the current song ends, the next one is current but paused at its
    /// start, as mpd 0.23.12 does (checked against it: the conformance script's "single" sequence). Was a
    /// stop issued by an observer after the player had already moved on.
    @Test func singlePausesAtTheStartOfTheNextSong() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        try server.mpc(["single", "on"])
        try server.mpc(["add", "opus.opus"])
        try server.mpc(["add", "Long/tone1.flac"])
        try server.mpc(["play"])
        let status = try Poll.value(timeout: 10, { try server.mpc(["status"]).out }) { !$0.contains("[playing]") }
        #expect(status.contains("[paused]"), "\(status)")
        #expect(status.contains("Tone 1") && status.contains(" 0:00/"), "\(status)")
    }
}

/// The command itself: help, and the exit statuses of mlib(1).
struct ServeCommandTests {
    @Test func helpAndExitStatuses() throws {
        let help = try run(Paths.mlib.path, ["serve", "--help"])
        #expect(help.status == 0)
        for option in ["--bind", "--port", "--socket", "--password", "--sink", "--random", "--record-plays"] {
            #expect(help.out.contains(option), "\(option) missing from --help")
        }
        let missing = try run(Paths.mlib.path, ["serve", "--library", "/nonexistent/library.sqlite", "--sink", "null"])
        #expect(missing.status == 3)
        #expect(missing.err.contains("no library at /nonexistent/library.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/library.sqlite"))
        let badSink = try run(Paths.mlib.path, ["serve", "--sink", "speaker"])
        #expect(badSink.status == 2)
    }
}
