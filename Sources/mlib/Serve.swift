import ArgumentParser
import Foundation
import Library
import MediaIndex
import MPDServer
import Playback
import SubsonicServer
import WebApp
import DLNAServer
import Synchronization

/// `mlib serve`: the player as a daemon behind the MPD protocol, so MPD clients drive it.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the library and a player to MPD clients (mpc, ncmpcpp, Cantata), and the Subsonic API to phones.",
        discussion: """
            Speaks the MPD protocol (0.23) on 127.0.0.1:6600 by default: queue, playback, options, the \
            library as MPD's database (URIs are paths relative to the root, or ROOTNAME/… with several \
            roots), stored playlists (the library's playlists), idle, update (runs the scanner), albumart \
            and readpicture. One MusicPlayer plays into the sink, as `mlib play` does. It listens at \
            once and reads the library into memory meanwhile: ping, status (updating_db) and the \
            player's state are answered at once, library commands once it is read.

            Plays and skips are recorded in the library only for real-time device playback (the \
            pulse/auto sink), or with --record-plays.

            With --http [ADDR:]PORT it also serves the OpenSubsonic API (1.16.1; XML and JSON) on that \
            port (127.0.0.1 unless ADDR is given) over the same library, for Symfonium, DSub, Ultrasonic, \
            Tempo, Feishin and other Subsonic clients; add users first with `mlib user add`. With --no-mpd \
            it serves only the API (no player, no sink). Streams are transcoded to Opus or MP3 in this \
            process when a client asks (format, maxBitRate) and covers scaled (size). The \
            API section of mlib(1) lists the methods, the authentication and the limits.

            With --dlna it also serves the library to TVs, receivers and VLC as a UPnP/DLNA MediaServer \
            (SSDP on the interfaces --dlna-interface names, HTTP on --dlna-port, 8200 by default): Music, Video \
            and Folders, Search, art and the files; the DLNA section of mlib(1) says what is served.

            SIGTERM or SIGINT stops the server cleanly (connections closed, the player stopped).

            Examples:
              mlib serve &
              mpc add / && mpc play
              mlib user add alice && mlib serve --http 4533 --no-mpd
              mlib serve --http 0.0.0.0:4533
              mlib serve --no-mpd --dlna --dlna-interface eth0
              mlib serve --port 6601 --sink null --password secret
              mlib serve --socket $XDG_RUNTIME_DIR/mlib.socket
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var bind: String = "127.0.0.1"

    @Option(help: ArgumentHelp("The TCP port (0: any free port, printed on start).", valueName: "port"))
    var port: Int = 6600

    @Option(help: ArgumentHelp("Also listen on this Unix socket.", valueName: "path"))
    var socket: String?

    @Flag(help: "Listen on the Unix socket only (with --socket).")
    var noTcp = false

    @Option(help: ArgumentHelp("Clients must send this password, or a library user's as user:secret, before any other command.", valueName: "password"))
    var password: String?

    @Option(help: ArgumentHelp("Where the audio goes: auto, null, null:fast, wav:FILE, pcm.", valueName: "sink"))
    var sink: String = "auto"

    @Option(help: ArgumentHelp("What MPD's random mode shuffles: songs, or albums.", valueName: "mode"))
    var random: ShuffleMode = .songs

    @Flag(help: "Record plays and skips whatever the sink (by default only for a real-time device).")
    var recordPlays = false

    @Option(help: ArgumentHelp("Also serve the OpenSubsonic API on this port (0: any free port), on 127.0.0.1 unless an address is given.",
                               valueName: "[address:]port"))
    var http: String?

    @Flag(help: "With --http: no web app (/, /app/ and /api/ answer 404, and /rest/ takes no session cookie).")
    var noWeb = false

    @Flag(help: "Serve only the Subsonic API (with --http) or DLNA (with --dlna): no MPD port, no player.")
    var noMpd = false

    @Flag(help: "Also serve the library to TVs, receivers and VLC as a UPnP/DLNA MediaServer (SSDP on port 1900).")
    var dlna = false

    @Option(help: ArgumentHelp("DLNA: the HTTP port for descriptions, browsing and streams (0: any free port).", valueName: "port"))
    var dlnaPort: Int = 8200

    @Option(help: ArgumentHelp("DLNA: serve and announce on this interface only (repeat for several; default: every IPv4 interface but loopback).",
                               valueName: "name"))
    var dlnaInterface: [String] = []

    @Option(help: ArgumentHelp("DLNA: the name TVs list (default: mlib on HOSTNAME).", valueName: "name"))
    var dlnaName: String?

    @Option(help: ArgumentHelp("DLNA: transcoded streams (LPCM, MP3) at once; one more is answered 503 (default: the number of cores, at least 2).", valueName: "n"))
    var dlnaTranscodes: Int?

    @Option(help: ArgumentHelp("DLNA: drop an answer the client has taken nothing of for this many seconds (a TV reading a stream at its pace keeps it).", valueName: "seconds"))
    var dlnaWriteTimeout: Int?

    @Option(help: ArgumentHelp("The users' key file, for the API and MPD's password user:secret (default: beside the library; see mlib user).", valueName: "path"))
    var keyFile: String?

    /// Whether `view` came in before `stop` ended (false: the signal came first).
    static func first(readyOf view: LiveView, orEndOf stop: Task<Void, Never>) async -> Bool {
        let once = Once()
        return await withCheckedContinuation { (first: CheckedContinuation<Bool, Never>) in
            Task { await view.ready(); if once.claim() { first.resume(returning: true) } }
            Task { await stop.value; if once.claim() { first.resume(returning: false) } }
        }
    }

    /// True for the first caller only.
    private final class Once: Sendable {
        private let done = Mutex(false)
        func claim() -> Bool {
            done.withLock { done in
                defer { done = true }
                return !done
            }
        }
    }

    /// `--http`'s address and port.
    var httpAddress: (host: String, port: Int)? {
        guard let http else { return nil }
        let (host, portText) = http.lastIndex(of: ":").map { (String(http[..<$0]), String(http[http.index(after: $0)...])) } ?? ("127.0.0.1", http)
        guard let port = Int(portText), (0...65535).contains(port) else { return nil }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return (bare.isEmpty ? "127.0.0.1" : bare, port)
    }

    @Option(help: ArgumentHelp("Most KiB a client's answers may hold unsent; a command list whose answer goes past it closes the client (as mpd's max_output_buffer_size).", valueName: "KiB"))
    var maxOutputBuffer: Int = 8192

    @Option(help: ArgumentHelp("Disconnect a client that sends nothing for this many seconds (not while it waits in idle).", valueName: "seconds"))
    var connectionTimeout: Int = 60

    @Option(help: ArgumentHelp("Connections served at once; one more gets an ACK line and is closed.", valueName: "n"))
    var maxConnections: Int = 100

    // The API's limits (--http): defaults as `SubsonicServerConfiguration`'s; mlib(1) SECURITY says why each.
    @Option(help: ArgumentHelp("API: a request's head must arrive within this many seconds of the connection opening, its body within as many of its head.", valueName: "seconds"))
    var httpReadTimeout: Int = 5

    @Option(help: ArgumentHelp("API: close a kept-alive connection idle for this many seconds.", valueName: "seconds"))
    var httpIdleTimeout: Int = 30

    @Option(help: ArgumentHelp("API: drop an answer the client has taken nothing of for this many seconds (its transcoding slot freed; a player reading a stream at its pace keeps it).", valueName: "seconds"))
    var httpWriteTimeout: Int = 15

    @Option(help: ArgumentHelp("API: connections at once in all; one more closes the oldest idle one, or is refused when none is idle.", valueName: "n"))
    var httpMaxConnections: Int = 64

    @Option(help: ArgumentHelp("API: connections at once from one client address, by the same rule.", valueName: "n"))
    var httpMaxConnectionsPerAddress: Int = 16

    @Option(help: ArgumentHelp("API: transcoded streams at once; one more is answered 503 (default: the number of cores, at least 2).", valueName: "n"))
    var httpTranscodes: Int?

    @Option(help: ArgumentHelp("API: transcoded streams of one user at once (default: one fewer than --http-transcodes, at least 1).", valueName: "n"))
    var httpTranscodesPerUser: Int?

    /// The API server's configuration from --http and the limits.
    func apiConfiguration(_ address: (host: String, port: Int)) -> SubsonicServerConfiguration {
        var configuration = SubsonicServerConfiguration()
        configuration.host = address.host
        configuration.port = address.port
        configuration.keyFile = keyFile
        configuration.requestReadTimeout = .seconds(Int64(httpReadTimeout))
        configuration.idleTimeout = .seconds(Int64(httpIdleTimeout))
        configuration.writeTimeout = .seconds(Int64(httpWriteTimeout))
        configuration.maximumConnections = httpMaxConnections
        configuration.maximumConnectionsPerAddress = httpMaxConnectionsPerAddress
        if let httpTranscodes {
            configuration.maximumTranscodes = httpTranscodes
            configuration.maximumTranscodesPerUser = max(1, httpTranscodes - 1)
        }
        if let httpTranscodesPerUser { configuration.maximumTranscodesPerUser = httpTranscodesPerUser }
        return configuration
    }

    @Flag(help: "On a library shared by several hosts (PostgreSQL), list every host's items on the Subsonic API, not only this host's (another host's songs then fail to play here). MPD always serves this host's items and the shares mounted here: its URIs are paths on this host.")
    var allHosts = false

    func validate() throws {
        if SinkSpec(sink) == nil { throw ValidationError("unknown sink \"\(sink)\" (auto, null, null:fast, wav:FILE, pcm)") }
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0–65535") }
        if noTcp && socket == nil { throw ValidationError("--no-tcp needs --socket") }
        if random == .off { throw ValidationError("--random is songs or albums") }
        if http != nil && httpAddress == nil { throw ValidationError("--http takes [ADDRESS:]PORT, PORT 0–65535") }
        if noMpd && http == nil && !dlna { throw ValidationError("--no-mpd needs --http or --dlna") }
        if noWeb && http == nil { throw ValidationError("--no-web needs --http") }
        if !(0...65535).contains(dlnaPort) { throw ValidationError("--dlna-port must be 0–65535") }
        if !dlna && (!dlnaInterface.isEmpty || dlnaName != nil || dlnaTranscodes != nil || dlnaWriteTimeout != nil) {
            throw ValidationError("--dlna-interface, --dlna-name, --dlna-transcodes and --dlna-write-timeout need --dlna")
        }
        if let dlnaTranscodes, dlnaTranscodes < 1 { throw ValidationError("--dlna-transcodes must be at least 1") }
        if let dlnaWriteTimeout, dlnaWriteTimeout < 1 { throw ValidationError("--dlna-write-timeout must be at least 1 (seconds)") }
        if maxOutputBuffer < 1 { throw ValidationError("--max-output-buffer must be at least 1 (KiB)") }
        if connectionTimeout < 1 { throw ValidationError("--connection-timeout must be at least 1 (seconds)") }
        if maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        // Zero would close every request at once or refuse every client: each limit is at least 1.
        for (name, value) in [("--http-read-timeout", httpReadTimeout), ("--http-idle-timeout", httpIdleTimeout),
                              ("--http-write-timeout", httpWriteTimeout), ("--http-max-connections", httpMaxConnections),
                              ("--http-max-connections-per-address", httpMaxConnectionsPerAddress),
                              ("--http-transcodes", httpTranscodes ?? 1), ("--http-transcodes-per-user", httpTranscodesPerUser ?? 1)] where value < 1 {
            throw ValidationError("\(name) must be at least 1 (it is \(value))")
        }
        if httpMaxConnectionsPerAddress > httpMaxConnections {
            throw ValidationError("--http-max-connections-per-address (\(httpMaxConnectionsPerAddress)) cannot exceed --http-max-connections (\(httpMaxConnections))")
        }
        if let perUser = httpTranscodesPerUser, let all = httpTranscodes, perUser > all {
            throw ValidationError("--http-transcodes-per-user (\(perUser)) cannot exceed --http-transcodes (\(all))")
        }
    }

    func run() async throws {
        let termination = TerminationSignals()
        // The first signal, awaited here and while DLNA waits for the view.
        let stopped = Task { await termination.wait() }
        // An existing library only (no library at the path is exit 3 through main, as for every command).
        let library = try libraryOptions.library(.existing)
        // Only the files this host reaches: another host's song would be another file here, or none.
        library.readThisHostOnly(!allHosts)
        // MPD always serves only this host's items and the shares mounted here, --all-hosts or not: its URIs
        // are paths under this host's roots, so another host's song at a path this host also has would be a
        // second song under one URI, played (and its cover read) from this host's file; and at a path this
        // host lacks, a song it cannot play. --all-hosts widens the Subsonic side only (its ids name items;
        // `stream` and `getCoverArt` refuse another host's, Library.reachesFile). MPD then reads through a
        // library of its own, limited to this host, with its own view (a second connection and view).
        // DLNA streams files too, so it reads as MPD does: this host's items only.
        var mpdLibrary = library
        if allHosts && (!noMpd || dlna) {
            mpdLibrary = try libraryOptions.library(.existing)
            mpdLibrary.readThisHostOnly(true)
        }
        // The fronts over one library: one in-memory view, with the slots each prints (the MPD server's
        // first), one change feed — a scan any runs is seen by all, and the library is held once. Built in
        // the background: the MPD port and the API listen at once, and what needs the library waits for it.
        func view(_ schemas: [ViewSchema], _ over: Library) throws -> LiveView? {
            schemas.count < 2 ? nil : try LiveView(store: over.store, schema: schemas.dropFirst().reduce(schemas[0]) { $0.merged(with: $1) },
                                                   building: .inBackground)
        }
        let localSchemas = (noMpd ? [] : [MPDServer.viewSchema]) + (dlna ? [DLNAServer.viewSchema] : [])
        let onLibrary: [ViewSchema] = (allHosts || noMpd ? [] : [MPDServer.viewSchema]) + (http != nil ? [SubsonicServer.viewSchema] : [])
            + (allHosts || !dlna ? [] : [DLNAServer.viewSchema])
        let sharedView = try view(onLibrary, library)
        let localView = allHosts ? try view(localSchemas, mpdLibrary) : sharedView
        // The store's checks before a first write, once the view is in (both read the whole file): at
        // 1,000,000 items they made a client's first rating after a start wait 3 s. A damaged library is
        // still refused at that write.
        for (over, shown) in [(library, sharedView)] + (mpdLibrary === library ? [] : [(mpdLibrary, localView)]) {
            Task.detached(priority: .background) {
                await shown?.ready()
                try? over.store.prepareForWrites()
            }
        }
        var api: SubsonicServer?
        var web: WebApp?
        if let address = httpAddress {
            let configuration = apiConfiguration(address)
            let server: SubsonicServer
            do { server = try SubsonicServer(library: library, configuration: configuration, view: sharedView) }
            catch let error as SubsonicError { throw CLIError.input(error.message) }
            do { try await server.start() } catch {
                await server.stop()
                throw CLIError.input("cannot listen on \(address.host):\(address.port): \(error)")
            }
            api = server
            if !noWeb {
                let front = WebApp(server: server)
                server.attach(web: front)
                web = front
            }
            if let exposure = library.exposure { printError("warning: \(exposure)") }
            // One line, the port after its last colon (the tests and scripts read it there).
            let url = "http://\(address.host):\(server.boundPort ?? address.port)"
            printError("serving the Subsonic API \(SubsonicServer.apiVersion) on \(url)/rest" + (noWeb ? "" : " and the web app on \(url)/"))
        }
        // DLNA answers from the view without waiting for it: it starts (and announces itself) once the view
        // it shares is in.
        func startDLNA(stopping others: () async -> Void) async throws -> DLNAServer? {
            guard dlna else { return nil }
            // A signal while the view builds (or cannot be read) still stops the server.
            if let localView, !localView.isReady, await !Self.first(readyOf: localView, orEndOf: stopped) { return nil }
            var configuration = DLNAServerConfiguration()
            configuration.port = dlnaPort
            configuration.interfaces = dlnaInterface
            configuration.friendlyName = dlnaName
            if let dlnaTranscodes { configuration.maximumTranscodes = dlnaTranscodes }
            if let dlnaWriteTimeout { configuration.writeTimeout = .seconds(Int64(dlnaWriteTimeout)) }
            configuration.uuidFile = library.locator.map(DLNAServer.defaultUUIDFile(for:))
            let server: DLNAServer
            do { server = try DLNAServer(library: mpdLibrary, configuration: configuration, view: localView) }
            catch let error as DLNAServer.ViewMismatch { throw CLIError.input(error.description) }
            do { try await server.start() } catch {
                await server.stop()
                await others()
                throw CLIError.input("cannot serve DLNA on port \(dlnaPort): \(error)")
            }
            // The URL last: its port is the digits after the line's last colon (as the other servers' lines).
            printError("serving DLNA (UPnP MediaServer \"\(server.friendlyName)\") at \(server.descriptionURLs.joined(separator: " and ")).")
            return server
        }
        if noMpd {
            let dlnaServer = try await startDLNA { web?.stop(); await api?.stop() }
            await stopped.value
            await dlnaServer?.stop()
            web?.stop(); await api?.stop()
            return
        }
        let spec = SinkSpec(sink)!
        let output = try spec.open()   // a SinkError is one line and status 1 (ExitStatus.swift)
        let player = MusicPlayer(sink: output)

        var configuration = MPDServerConfiguration()
        configuration.host = noTcp ? nil : bind
        configuration.port = port
        configuration.socketPath = socket
        configuration.password = password
        configuration.keyFile = keyFile
        configuration.randomMode = random
        configuration.maximumOutputBuffer = maxOutputBuffer * 1024
        configuration.connectionTimeout = .seconds(connectionTimeout)
        configuration.maximumConnections = maxConnections
        configuration.outputName = "mlib (\(spec))"
        configuration.outputPlugin = spec.description.split(separator: ":").first.map(String.init) ?? "null"
        // A play counts when someone heard it: a device in real time, not a null or file rendering.
        configuration.recordPlays = recordPlays || spec.isListenedTo

        let server = try MPDServer(player: player, library: mpdLibrary, configuration: configuration, view: localView)
        do { try await server.start() } catch {
            try? await server.stop()
            try? player.close()
            throw CLIError.input("cannot listen on \(noTcp ? socket! : "\(bind):\(port)"): \(error)")
        }
        // One player: the API's jukebox drives the MPD server's queue.
        api?.attach(jukebox: server)
        let listening = [noTcp ? nil : "\(bind):\(server.boundPort ?? port)", socket].compactMap { $0 }
        printError("serving MPD protocol \(MPDServer.protocolVersion) on \(listening.joined(separator: " and "))")
        let dlnaServer = try await startDLNA {
            try? await server.stop()
            try? player.close()
            web?.stop(); await api?.stop()
        }

        await stopped.value
        try? await server.stop()
        try? player.close()
        await dlnaServer?.stop()
        web?.stop(); await api?.stop()
    }
}
