import Foundation
import HTTPTypes
import Hummingbird
import Library
import NIOCore
import Playback
import SubsonicServer
import Synchronization

/// `GET /api/events`: server-sent events to every open page. `player` when the server's player or queue
/// changes (heard from the player itself, `Jukebox.observeChanges`: the changes MPD's `idle` hears, so an
/// `mpc next` reaches the page at once), `library` when the in-memory view moves to a new snapshot (a scan
/// here or elsewhere), and a comment every 15 s so that proxies and the browser keep the stream open.
final class EventHub: Sendable {
    let server: SubsonicServer
    static let keepAliveInterval: Duration = .seconds(15)

    private struct State {
        var clients: [Int: AsyncStream<ByteBuffer>.Continuation] = [:]
        var next = 0
        var version = 0
        var snapshot: ObjectIdentifier?
        var watch: LiveView.Watch?
        var keepAlive: Task<Void, Never>?
        var observing: (any Jukebox)?
        /// A player event is being read: changes meanwhile are in the one it sends.
        var playerPending = false
        var stopped = false
    }

    private let state = Mutex(State())

    init(server: SubsonicServer) { self.server = server }

    /// The library's version: a count of the view's snapshots since the web app began watching.
    var libraryVersion: Int {
        startWatching()
        return state.withLock { $0.version }
    }

    /// A new client's stream: the library's version and the player's state at once, then the changes.
    func stream() -> Response {
        startWatching()
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let (id, version) = state.withLock { state in
            state.next += 1
            state.clients[state.next] = continuation
            return (state.next, state.version)
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.clients.removeValue(forKey: id) } }
        continuation.yield(Self.event("library", #"{"version":\#(version)}"#))
        Task { if let event = await playerEvent() { continuation.yield(event) } }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        // nginx: pass each event on as it comes.
        headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        return Response(status: .ok, headers: headers, body: .init(asyncSequence: stream))
    }

    /// Ends every stream (the server stops).
    func stop() {
        let (clients, watch, keepAlive) = state.withLock { state in
            state.stopped = true
            defer { state.clients = [:]; state.watch = nil; state.keepAlive = nil }
            return (Array(state.clients.values), state.watch, state.keepAlive)
        }
        for client in clients { client.finish() }
        if let watch { server.view.stop(watch) }
        keepAlive?.cancel()
    }

    /// Watches the view and the player from the first client on (a server nobody opens the page of does
    /// no work for it).
    private func startWatching() {
        let jukebox = server.jukebox.withLock { $0 }
        let start = state.withLock { state -> (view: Bool, player: Bool) in
            guard !state.stopped else { return (false, false) }
            let view = state.watch == nil
            let player = jukebox != nil && state.observing !== jukebox
            if player { state.observing = jukebox }
            return (view, player)
        }
        if start.view {
            let watch = server.view.watch(every: .milliseconds(500)) { [weak self] snapshot in self?.viewChanged(snapshot) }
            let keepAlive = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.keepAliveInterval)
                    self?.broadcast(ByteBuffer(string: ": keep-alive\n\n"))
                }
            }
            state.withLock { state in
                state.watch = watch
                state.keepAlive = keepAlive
            }
            if server.view.isReady { viewChanged(server.view.snapshot) }
        }
        if start.player, let jukebox { jukebox.observeChanges { [weak self] in self?.playerChanged() } }
    }

    private func viewChanged(_ snapshot: LibrarySnapshot) {
        let version = state.withLock { state -> Int? in
            guard state.snapshot != ObjectIdentifier(snapshot) else { return nil }
            let first = state.snapshot == nil
            state.snapshot = ObjectIdentifier(snapshot)
            if !first { state.version += 1 }
            return first ? nil : state.version
        }
        if let version { broadcast(Self.event("library", #"{"version":\#(version)}"#)) }
    }

    private func playerChanged() {
        let read = state.withLock { state -> Bool in
            guard !state.playerPending, !state.clients.isEmpty else { return false }
            state.playerPending = true
            return true
        }
        guard read else { return }
        Task {
            // A burst of changes (an `mpc clear; mpc add; mpc play`) is one event: the state after it.
            try? await Task.sleep(for: .milliseconds(20))
            state.withLock { $0.playerPending = false }
            if let event = await playerEvent() { broadcast(event) }
        }
    }

    struct PlayerState: Encodable {
        var playing: Bool
        var index: Int
        var position: Double
        var gain: Float
        var queue: [String]
        var current: WebSong?
    }

    /// The player's state as an event; nil without a player.
    private func playerEvent() async -> ByteBuffer? {
        guard let jukebox = server.jukebox.withLock({ $0 }),
              let now = try? await jukebox.jukebox(.status, user: nil) else { return nil }
        await server.libraryReady()
        let current = now.entries.indices.contains(now.currentIndex) ? server.webSongs(ids: [now.entries[now.currentIndex]]).first : nil
        let state = PlayerState(playing: now.playing, index: now.currentIndex, position: now.position, gain: now.gain,
                                queue: now.entries.map { String($0) }, current: current)
        guard let text = try? WebApp.jsonText(state) else { return nil }
        return Self.event("player", text)
    }

    private func broadcast(_ event: ByteBuffer) {
        for client in state.withLock({ Array($0.clients.values) }) { client.yield(event) }
    }

    static func event(_ name: String, _ data: String) -> ByteBuffer {
        ByteBuffer(string: "event: \(name)\ndata: \(data)\n\n")
    }
}
