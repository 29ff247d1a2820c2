import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Library
import MediaIndex
import MediaModel
import NIOCore
import NIOPosix
import Playback
import Synchronization

/// How `mlib serve --http` listens and what it allows.
public struct SubsonicServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0: any free port (`SubsonicServer.boundPort` says which).
    public var port = 4533
    /// The users' key file (nil: the library's default, `PasswordVault.defaultKeyFile`).
    public var keyFile: String?
    /// Connections at once, in all. A new one past it closes the oldest idle one (a kept-alive connection
    /// between requests, or one still sending its first header), so idle or slow clients never keep a new
    /// one out; only when all are busy is it refused (`ConnectionRegistry`).
    public var maximumConnections = 64
    /// Connections at once from one client address, by the same rule.
    public var maximumConnectionsPerAddress = 16
    /// A request's head must be read within this of the connection opening, its body within as long of
    /// its head (a client sending a header byte every few seconds is closed).
    public var requestReadTimeout: TimeAmount = .seconds(5)
    /// A kept-alive connection idle this long is closed.
    public var idleTimeout: TimeAmount = .seconds(30)
    /// An answer the client has not read for this long is dropped, and its transcoding slot freed.
    public var writeTimeout: TimeAmount = .seconds(15)
    /// The largest request body read (form POSTs); a larger one is answered 413.
    public var maximumBodySize = 256 * 1024
    /// Transcoded streams at once (each on a thread of its own); one more is answered 503 with Retry-After.
    public var maximumTranscodes = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Transcoded streams of one user at once (one fewer than all: one user never holds every slot).
    public var maximumTranscodesPerUser = max(1, max(2, ProcessInfo.processInfo.activeProcessorCount) - 1)
    /// How often the view looks for a scan made elsewhere.
    public var checkInterval: Duration = .milliseconds(500)

    public init() {}
}

/// An OpenSubsonic API server (API 1.16.1 with OpenSubsonic's extensions) over a `Library` and an in-memory
/// view of it: phones and web players (Symfonium, DSub, Ultrasonic, Tempo, Feishin…) browse, search,
/// stream, star, rate and keep playlists.
///
/// Layout: `Node` (the answer, in XML or JSON), `Parameters`, `Users+Subsonic` (Subsonic's authentication
/// over `Library`'s `Users`), `Catalog` (albums, artists, genres and ids derived from a view snapshot), the `Endpoints+*`
/// files (one group of methods each). Lists and browsing answer from the view; store calls (user data,
/// users, playlists) run on the server's store thread, never on an event loop.
public final class SubsonicServer: Sendable {
    public static let apiVersion = "1.16.1"
    public static let serverVersion = "0.1.0"

    public let configuration: SubsonicServerConfiguration
    package let library: Library
    package let view: LiveView
    package let users: Users
    let storeThread = NIOThreadPool(numberOfThreads: 1)
    let transcoding: TranscodeSlots
    let connections: ConnectionRegistry
    let covers: CoverCache
    let nowPlaying = NowPlayingBoard()
    let chat = ChatBoard()
    let state = Mutex(State())
    /// The player `jukeboxControl` drives (`attach(jukebox:)`): the MPD server's, when `mlib serve` runs both.
    package let jukebox = Mutex<(any Jukebox)?>(nil)
    /// The web app served beside the API (`attach(web:)`); nil: `/` is 404 and `/rest/` reads no cookie.
    let web = Mutex<(any WebFront)?>(nil)
    private let running = Mutex<(task: Task<Void, any Error>?, port: Int?)>((nil, nil))
    /// This server's watching of the view (a shared view goes on for the other front when this one stops).
    private let watching = Mutex<LiveView.Watch?>(nil)

    struct State {
        var catalog: Catalog?
        /// The values of each user who is not the library's owner (their own: `UserItemDataStore`), read
        /// once, then kept as this server changes them. The owner's are the items': the view's, one source
        /// (a write of this server's is in the view before its call returns: `Call.changeValues`).
        var ownValues: [String: [Int64: UserData]] = [:]
        /// Each user's stars, read once, then kept as this server changes them.
        var stars: [String: [UserStar.Kind: [String: Date]]] = [:]
        var scanning = false
        var scanCount = 0
        /// Requests that wait for the first catalog (`libraryReady()`).
        var catalogWaiters: [CheckedContinuation<Void, Never>] = []
    }

    struct UserData {
        var playCount: Int
        var rating: Int?
        var lastPlayed: Int64?
    }

    /// What the API server keeps of each item in its in-memory view. A view shared with the MPD server
    /// (`mlib serve --http` beside the MPD port) is built from the MPD server's schema merged with this one
    /// (`ViewSchema.merged(with:)`); the server finds its slots wherever they are.
    public static var viewSchema: ViewSchema { .subsonic }

    /// A view given to `init(library:configuration:view:)` whose schema lacks `viewSchema`'s slots.
    public struct ViewMismatch: Error, CustomStringConvertible {
        public var description: String { "the shared library view was not built with SubsonicServer.viewSchema" }
    }

    /// Builds the view (in the background: `start` listens at once, and what needs the library waits for
    /// it, `libraryReady()`), or serves from `view`, one over `library`'s store shared with another front (the MPD server), whose
    /// schema holds `viewSchema`'s slots. Refreshes — a scan here, an MPD `update`, a scan by another
    /// process — are then seen by both: one view, one change feed.
    public init(library: Library, configuration: SubsonicServerConfiguration, view: LiveView? = nil) throws {
        if let view, view.schema.slotOffset(of: .subsonic) == nil { throw ViewMismatch() }
        self.library = library
        self.configuration = configuration
        do { users = try Users(library: library, keyFile: configuration.keyFile, createKey: false) }
        catch let error as UsersError { throw SubsonicError.users(error) }
        self.view = try view ?? LiveView(store: library.store, schema: .subsonic, building: .inBackground)
        transcoding = TranscodeSlots(limit: configuration.maximumTranscodes, perUser: configuration.maximumTranscodesPerUser)
        connections = ConnectionRegistry(perAddress: configuration.maximumConnectionsPerAddress, total: configuration.maximumConnections)
        covers = CoverCache(besideKeyFile: configuration.keyFile ?? library.locator.map { PasswordVault.defaultKeyFile(for: $0) } ?? "mlib")
        storeThread.start()
    }

    /// Binds and starts serving; returns once clients can connect.
    public func start() async throws {
        // Each new snapshot's catalog is derived on the view's queue, before a request needs it; the first
        // too (issue 44: 4.7 s at a million songs), so the server listens at once and what needs the
        // library waits for it (`libraryReady()`).
        let watch = view.watch(every: configuration.checkInterval) { [weak self] snapshot in self?.deriveCatalog(snapshot) }
        view.whenReady { [weak self] snapshot in self?.deriveCatalog(snapshot) }
        watching.withLock { $0 = watch }
        let (bound, continuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        let (registry, limits) = (connections, configuration)
        let app = Application(
            responder: Responder(server: self),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [ConnectionGuard(registry: registry, headerTimeout: limits.requestReadTimeout,
                                                            idleTimeout: limits.idleTimeout, writeTimeout: limits.writeTimeout)],
                idleTimeout: configuration.idleTimeout)),
            // No cap on accepting: the registry closes an idle connection for a new one, or the new one.
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "mlib", backlog: 256),
            onServerRunning: { channel in continuation.yield(.success(channel.localAddress?.port ?? 0)) },
            logger: { var l = Logger(label: "mlib.subsonic"); l.logLevel = .critical; return l }())
        let task = Task {
            do { try await app.run() } catch { continuation.yield(.failure(error)); throw error }
            continuation.finish()
        }
        running.withLock { $0.task = task }
        for await result in bound {
            switch result {
            case .success(let port):
                running.withLock { $0.port = port }
                return
            case .failure(let error):
                throw error
            }
        }
        throw SubsonicError.generic("the HTTP server stopped before it listened")
    }

    /// The TCP port bound (useful with port 0).
    public var boundPort: Int? { running.withLock { $0.port } }

    /// Lets admins drive `jukebox` through `jukeboxControl` (without one, the call answers error 0: no player).
    public func attach(jukebox player: any Jukebox) { jukebox.withLock { $0 = player } }

    /// Serves `front` at every path outside `/rest/` and `/share/`, and lets `/rest/` calls authenticate by
    /// its sessions (`WebFront`).
    public func attach(web front: any WebFront) { web.withLock { $0 = front } }

    public func stop() async {
        if let watch = watching.withLock({ $0 }) { view.stop(watch) }
        let task = running.withLock { $0.task }
        task?.cancel()
        _ = try? await task?.value
        try? await storeThread.shutdownGracefully()
        try? await transcoding.threads.shutdownGracefully()
    }

    /// Runs blocking store work on the store thread.
    package func offLoop<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await storeThread.runIfActive(work)
    }

    /// Derives `snapshot`'s catalog (on the view's queue) unless it has one (a first snapshot is heard
    /// twice when the watching began while it was built), and lets the requests waiting for one go on.
    private func deriveCatalog(_ snapshot: LibrarySnapshot) {
        let previous = state.withLock { $0.catalog }
        if let previous, previous.view === snapshot { return }
        let catalog = Catalog(snapshot, following: previous)
        let waiting = state.withLock { state in
            state.catalog = catalog
            defer { state.catalogWaiters = [] }
            return state.catalogWaiters
        }
        for request in waiting { request.resume() }
    }

    /// Returns once the library is loaded (the view's first snapshot and its catalog): a request that needs
    /// the library awaits it in its handler, never blocking an event loop.
    package func libraryReady() async {
        if state.withLock({ $0.catalog != nil }) { return }
        await withCheckedContinuation { (request: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.catalog != nil { return true }
                state.catalogWaiters.append(request)
                return false
            }
            if ready { request.resume() }
        }
    }

    /// The catalog of the current view snapshot, derived once per snapshot.
    var catalog: Catalog {
        let snapshot = view.snapshot
        let cached = state.withLock { $0.catalog }
        if let cached, cached.view === snapshot { return cached }
        let catalog = Catalog(snapshot, following: cached)
        state.withLock { $0.catalog = catalog }
        return catalog
    }
}

/// Hummingbird's entry: `/rest/<method>` and `/rest/<method>.view`, GET or form POST.
struct Responder: HTTPResponder {
    typealias Context = APIRequestContext
    let server: SubsonicServer

    func respond(to request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        // A share's public link needs no account (SharePage.swift).
        if path.hasPrefix("/share/") {
            await server.libraryReady()
            return await server.sharePage(path: path, request: request)
        }
        guard path.hasPrefix("/rest/") else {
            let web = server.web.withLock { $0 }
            return await web?.respond(to: request, context: context) ?? Response(status: .notFound)
        }
        var method = String(path.dropFirst(6))
        if method.hasSuffix(".view") { method.removeLast(5) }
        var form: String?
        if request.method == .post {
            var request = request
            guard let body = try? await request.collectBody(upTo: server.configuration.maximumBodySize) else {
                return Response(status: .contentTooLarge)
            }
            form = String(buffer: body)
        }
        let parameters = Parameters(query: request.uri.query, form: form)
        let json = parameters["f"] == "json"
        do {
            let user = try await authenticate(parameters, method: method, request: request)
            // While the library loads, what needs it waits here (an await: the event loop goes on serving).
            if !Call.answeredBeforeLibrary.contains(method) { await server.libraryReady() }
            let call = Call(server: server, parameters: parameters, user: user, request: request, context: context)
            switch try await call.run(method) {
            case .nodes(let nodes): return Self.envelope(nodes, error: nil, json: json)
            case .response(let response):
                // HEAD (players probe a stream before playing it): the headers, never a body.
                if request.method == .head { return Response(status: response.status, headers: response.headers) }
                return response
            }
        } catch let refusal as WebRefusal {
            // Subsonic answers its errors with 200; a refused session is the web app's (403, as its own calls).
            var response = Self.envelope([], error: .notAuthorized(refusal.reason), json: json)
            response.status = .forbidden
            return response
        } catch let error as SubsonicError {
            return Self.envelope([], error: error, json: json)
        } catch let error as IndexError {
            return Self.envelope([], error: .library(error), json: json)
        } catch let error as UsersError {
            return Self.envelope([], error: .users(error), json: json)
        } catch {
            return Self.envelope([], error: .generic("\(error)"), json: json)
        }
    }

    /// The call's user: by its parameters (Subsonic's `u`/`p`/`t`/`s` or `apiKey`), or, with none of those,
    /// by the web app's session cookie (WEBAPP-CONTRACT.md: the page calls the API as its logged-in user).
    private func authenticate(_ parameters: Parameters, method: String, request: Request) async throws -> UserAccount {
        if parameters["u"] == nil, parameters["apiKey"] == nil, let web = server.web.withLock({ $0 }) {
            switch await web.sessionUser(of: request, changesState: !Call.onlyReads(method, parameters)) {
            case .none: break
            case .user(let user): return user
            case .refused(let reason): throw WebRefusal(reason: reason)
            }
        }
        return try await server.offLoop { [users = server.users] in try users.authenticate(parameters) }
    }

    static func envelope(_ nodes: [Node], error: SubsonicError?, json: Bool) -> Response {
        var root = Node("subsonic-response")
        if !json { root.set("xmlns", "http://subsonic.org/restapi") }
        root.set("status", error == nil ? "ok" : "failed")
        root.set("version", SubsonicServer.apiVersion)
        root.set("type", "mlib")
        root.set("serverVersion", SubsonicServer.serverVersion)
        root.set("openSubsonic", true)
        if let error {
            var node = Node("error")
            node.set("code", error.code)
            node.set("message", error.message)
            root.add(node)
        }
        // A node without a name stands for its children (a list directly in the envelope).
        for node in nodes { if node.name.isEmpty { root.children += node.children } else { root.children.append((node.name, .one(node))) } }
        var text = ""
        if json {
            text = "{\"subsonic-response\":"
            root.json(into: &text)
            text += "}"
        } else {
            text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            root.xml(into: &text)
        }
        var headers = HTTPFields()
        headers[.contentType] = json ? "application/json; charset=utf-8" : "application/xml; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// What a method answers: elements inside the envelope, or a response of its own (media, images).
enum Reply {
    case nodes([Node])
    case response(Response)
}

/// One authenticated request.
struct Call {
    let server: SubsonicServer
    let parameters: Parameters
    let user: UserAccount
    let request: Request
    let context: APIRequestContext

    /// What is answered while the library still loads (`mlib serve` listens before its view is built):
    /// the server, the login, the users and the scan status (scanning, as MPD's status says it updates).
    /// Every other method waits for the library.
    static let answeredBeforeLibrary: Set<String> = [
        "ping", "getLicense", "getOpenSubsonicExtensions", "tokenInfo", "getUser", "getUsers", "createUser",
        "updateUser", "deleteUser", "changePassword", "getPodcasts", "getNewestPodcasts", "getScanStatus",
    ]

    func run(_ method: String) async throws -> Reply {
        switch method {
        case "ping": try libraryReachable(); return .nodes([])
        case "getLicense": return .nodes([license()])
        case "getOpenSubsonicExtensions": return .nodes(extensions())
        case "tokenInfo": return .nodes([tokenInfo()])
        case "getMusicFolders": return .nodes([musicFolders()])
        case "getIndexes": return .nodes([try await indexes()])
        case "getMusicDirectory": return .nodes([try await musicDirectory()])
        case "getArtists": return .nodes([try await artists()])
        case "getArtist": return .nodes([try await artist()])
        case "getAlbum": return .nodes([try await album()])
        case "getSong": return .nodes([try await song()])
        case "getAlbumList": return .nodes([try await albumList()])
        case "getAlbumList2": return .nodes([try await albumList2()])
        case "getRandomSongs": return .nodes([try await randomSongs()])
        case "getGenres": return .nodes([genres()])
        case "getSongsByGenre": return .nodes([try await songsByGenre()])
        case "getArtistInfo": return .nodes([try await artistInfo(id3: false)])
        case "getArtistInfo2": return .nodes([try await artistInfo(id3: true)])
        case "getAlbumInfo", "getAlbumInfo2": return .nodes([try await albumInfo()])
        case "getTopSongs": return .nodes([try await topSongs()])
        case "getSimilarSongs": return .nodes([try await similarSongs(id3: false)])
        case "getSimilarSongs2": return .nodes([try await similarSongs(id3: true)])
        case "getNowPlaying": return .nodes([try await nowPlaying()])
        case "getChatMessages": return .nodes([try chatMessages()])
        case "addChatMessage": return .nodes(try addChatMessage())
        case "jukeboxControl": return .nodes([try await jukeboxControl()])
        case "getVideos": return .nodes([try await videos()])
        // What mlib keeps none of, listed as empty (clients open these pages at start): podcasts (mlib follows no feeds).
        case "getPodcasts": return .nodes([Node("podcasts")])
        case "getNewestPodcasts": return .nodes([Node("newestPodcasts")])
        case "getInternetRadioStations": return .nodes([try await internetRadioStations()])
        case "createInternetRadioStation": return .nodes(try await createInternetRadioStation())
        case "updateInternetRadioStation": return .nodes(try await updateInternetRadioStation())
        case "deleteInternetRadioStation": return .nodes(try await deleteInternetRadioStation())
        case "getShares": return .nodes([try await shares()])
        case "createShare": return .nodes(try await createShare())
        case "updateShare": return .nodes(try await updateShare())
        case "deleteShare": return .nodes(try await deleteShare())
        case "reportPlayback": return .nodes(try await reportPlayback())
        case "search": return .nodes([try await search()])
        case "search2": return .nodes([try await search2()])
        case "search3": return .nodes([try await search3()])
        case "stream", "download": return .response(try await stream(method))
        case "getCoverArt": return .response(try await coverArt())
        case "scrobble": return .nodes(try await scrobble())
        case "star": return .nodes(try await star(true))
        case "unstar": return .nodes(try await star(false))
        case "getStarred": return .nodes([try await starred()])
        case "getStarred2": return .nodes([try await starred2()])
        case "setRating": return .nodes(try await setRating())
        case "getPlaylists": return .nodes([try await playlists()])
        case "getPlaylist": return .nodes([try await playlist()])
        case "createPlaylist": return .nodes(try await createPlaylist())
        case "updatePlaylist": return .nodes(try await updatePlaylist())
        case "deletePlaylist": return .nodes(try await deletePlaylist())
        case "startScan": return .nodes([try startScan()])
        case "getScanStatus": try libraryReachable(); return .nodes([scanStatus()])
        case "getUser": return .nodes([try await getUser()])
        case "getUsers": return .nodes([try await getUsers()])
        case "getAvatar": return .response(try await avatar())
        case "createUser": return .nodes(try await createUser())
        case "updateUser": return .nodes(try await updateUser())
        case "deleteUser": return .nodes(try await deleteUser())
        case "changePassword": return .nodes(try await changePassword())
        case "getPlayQueue": return .nodes(try await playQueue())
        case "savePlayQueue": return .nodes(try await savePlayQueue())
        case "getPlayQueueByIndex": return .nodes(try await playQueueByIndex())
        case "savePlayQueueByIndex": return .nodes(try await savePlayQueueByIndex())
        case "getLyrics": return .nodes([try await lyrics()])
        case "getLyricsBySongId": return .nodes([try await lyricsBySongID()])
        case "getBookmarks": return .nodes([try await bookmarks()])
        case "createBookmark": return .nodes(try await createBookmark())
        case "deleteBookmark": return .nodes(try await deleteBookmark())
        default: throw SubsonicError.notFound("Method \(method)")
        }
    }
}
