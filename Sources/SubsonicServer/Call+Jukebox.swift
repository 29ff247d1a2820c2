import Foundation
import Playback

// `jukeboxControl`: the server's player, driven from a phone — the MPD server's player and queue when `mlib
// serve` runs both (`SubsonicServer.attach(jukebox:)`), so an MPD client and a jukebox client see one queue.
// Admins only (Subsonic's jukeboxRole, which `getUser` reports): the player is the household's, in one room.
extension Call {
    func jukeboxControl() async throws -> Node {
        guard user.isAdmin else { throw SubsonicError.notAuthorized("the jukebox") }
        guard let jukebox = server.jukebox.withLock({ $0 }) else {
            throw SubsonicError.generic("no jukebox: this server plays nothing (mlib serve --no-mpd)")
        }
        let action = try parameters.required("action")
        let command: JukeboxCommand
        switch action {
        case "get", "status": command = .status
        case "set": command = .set(try songIDs())
        case "add": command = .add(try songIDs())
        case "start": command = .start
        case "stop": command = .stop
        case "skip": command = .skip(index: try parameters.int("index", 0, in: 0...Int(Int32.max)),
                                     offset: Double(try parameters.int("offset", 0, in: 0...Int(Int32.max))))
        case "clear": command = .clear
        case "remove": command = .remove(index: try Parameters.int("index", try parameters.required("index"), in: 0...Int(Int32.max)))
        case "shuffle": command = .shuffle
        case "setGain":
            guard let gain = Float(try parameters.required("gain").trimmingCharacters(in: .whitespaces)), (0...1).contains(gain) else {
                throw SubsonicError.generic("parameter gain is not a number from 0 to 1")
            }
            command = .setGain(gain)
        default: throw SubsonicError.generic("unknown jukebox action \"\(action)\" (get, status, set, start, stop, skip, add, clear, remove, shuffle, setGain)")
        }
        let state: JukeboxState
        do { state = try await jukebox.jukebox(command, user: user.isOwner ? nil : user.name) }
        catch let error as JukeboxError {
            if case .unknownItems = error { throw SubsonicError.notFound("Song") }
            throw SubsonicError.generic(error.description)
        }
        var node = Node(action == "get" ? "jukeboxPlaylist" : "jukeboxStatus")
        node.set("currentIndex", state.currentIndex)
        node.set("playing", state.playing)
        node.set("gain", Double(state.gain))
        node.set("position", Int(state.position.rounded(.down)))
        if action == "get" {
            let catalog = server.catalog, marks = try await marks()
            node.add(list: "entry", state.entries.compactMap { catalog.item(id: String($0)) }.map { songNode($0, catalog, marks, name: "entry") })
        }
        return node
    }

    /// The `id` parameters of `set` and `add`: song ids (none for `set` empties the queue).
    private func songIDs() throws -> [Int64] {
        try parameters.all("id").map { text in
            guard let id = Int64(text) else { throw SubsonicError.notFound("Song \(text)") }
            return id
        }
    }
}
