import Foundation
import Library
import MediaModel

// What clients say about their playing: now playing (`scrobble` with `submission=false`) and OpenSubsonic's
// `reportPlayback` timeline (`playbackReport`), where the server decides what counts as a play.
extension Call {
    /// `getNowPlaying`: what every user's clients play, by their last `scrobble submission=false` or
    /// `reportPlayback`, with the position the server works out from the last report; and the server's own
    /// player while it plays (`serverPlayerName`).
    func nowPlaying() async throws -> Node {
        let catalog = server.catalog, marks = try await marks()
        let now = Date()
        var node = Node("nowPlaying")
        var entries = server.nowPlaying.playing(at: now).compactMap { entry -> Node? in
            guard let item = catalog.itemByID[entry.item] else { return nil }
            var song = songNode(item, catalog, marks, name: "entry")
            song.set("username", entry.user)
            song.set("minutesAgo", Int(now.timeIntervalSince(entry.reported) / 60))
            song.set("playerId", Self.playerID(entry.user, entry.client))
            song.set("playerName", entry.client)
            if let state = entry.state {
                song.set("state", state.rawValue)
                song.set("positionMs", Int((entry.position(at: now) * 1000).rounded()))
                song.set("playbackRate", entry.rate)
            }
            return song
        }
        if let playing = try await serverPlayerSong(catalog, marks) { entries.append(playing) }
        node.add(list: "entry", entries)
        return node
    }

    /// What `getNowPlaying` calls the MPD side's player, which MPD clients and `jukeboxControl` drive.
    static let serverPlayerName = "mlib serve"

    private static func playerID(_ user: String, _ client: String) -> Int {
        Int(Catalog.hash(user + "\u{1F}" + client).prefix(7), radix: 16) ?? 0
    }

    /// The server's player's song while it plays (nil when paused, stopped or absent: `--no-mpd`), as the
    /// library owner's (whose plays it records for MPD clients).
    private func serverPlayerSong(_ catalog: Catalog, _ marks: Marks) async throws -> Node? {
        guard let jukebox = server.jukebox.withLock({ $0 }),
              let state = try? await jukebox.jukebox(.status, user: nil), state.playing,
              state.entries.indices.contains(state.currentIndex),
              let item = catalog.itemByID[state.entries[state.currentIndex]] else { return nil }
        let owner = try await server.offLoop { [users = server.users] in try users.list().first(where: \.isOwner)?.name } ?? ""
        var song = songNode(item, catalog, marks, name: "entry")
        song.set("username", owner)
        song.set("minutesAgo", 0)
        song.set("playerId", Self.playerID(owner, Self.serverPlayerName))
        song.set("playerName", Self.serverPlayerName)
        song.set("state", NowPlayingBoard.State.playing.rawValue)
        song.set("positionMs", Int((state.position * 1000).rounded()))
        song.set("playbackRate", 1.0)
        return song
    }

    /// `reportPlayback`: the client's timeline of one song (`starting`, `playing` every few seconds,
    /// `paused`, `stopped`). The server counts the time heard between reports (wall-clock time while
    /// playing, at most as far as the position moved); at `stopped` it records the song by the library's
    /// rule (`PlayStatisticsRule`: half of it or 240 s heard is a play), unless
    /// `ignoreScrobble`. A song left without a `stopped` (another one started) is not counted, as the
    /// extension asks.
    func reportPlayback() async throws -> [Node] {
        let catalog = server.catalog
        let id = try parameters.required("mediaId")
        _ = try parameters.choice("mediaType", ["song", "podcast"])
        guard let item = catalog.item(id: id) else { throw SubsonicError.notFound("Song \(id)") }
        let state = try NowPlayingBoard.State(rawValue: parameters.choice("state", Set(NowPlayingBoard.State.allCases.map(\.rawValue))))!
        let position = Double(try parameters.int("positionMs", 0, in: 0...Int(Int32.max))) / 1000
        let rate = try parameters["playbackRate"].map { text -> Double in
            guard let rate = Double(text), rate.isFinite, rate > 0, rate <= 16 else { throw SubsonicError.generic("playbackRate out of range: \(text)") }
            return rate
        } ?? 1
        let ignoreScrobble = try parameters.bool("ignoreScrobble", false)
        let itemID = catalog.view.ids[Int(item)], duration = catalog.view.durations[Int(item)]
        let ended = server.nowPlaying.report(user: user.name, client: parameters["c"] ?? "", item: itemID, duration: duration,
                                             state: state, position: position, rate: rate)
        if let ended, !ignoreScrobble {
            // Never `.finished`: a position at the end may be a seek there; what was heard decides.
            var song = MediaItem(path: catalog.view.paths[Int(item)])
            song.persistentID = itemID
            let end = ItemEnd(item: song, reason: .stopped, position: ended.reportedPosition, duration: duration, heard: ended.heard)
            let name = user.name
            try await server.offLoop { [library = server.library] in _ = try library.record(end, front: .subsonic, user: name) }
        }
        return []
    }
}
