import Foundation
import Library
import MediaDecode
import MediaIndex
import MediaModel
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// `mlib serve --dlna`: a UPnP MediaServer:1 over a `Library` and its in-memory view — SSDP on the
/// interfaces asked, the device description, ContentDirectory:1, ConnectionManager:1, Microsoft's
/// registrar, GENA eventing of the update ids, and the files over HTTP. Every answer is read from the
/// view's current snapshot (`MediaTree`), made again on the view's queue when the library changes; the
/// store is asked only for playlists and searches.
public final class DLNAServer: Sendable {
    public static var viewSchema: ViewSchema { .dlna }

    let library: Library
    public let configuration: DLNAServerConfiguration
    let view: LiveView
    public let uuid: String
    public let friendlyName: String
    let slotBase: Int
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// Requests are answered here, never on the event loop (store reads, file opens); one thread, as the
    /// API server's store thread.
    let pool = NIOThreadPool(numberOfThreads: 1)
    let eventing: Eventing
    /// The bound on transcodes (`/transcode/…`), as the Subsonic API's.
    let transcoding: TranscodeSlots
    /// The MP3 transcode's bit rate (bits per second): the most LAME makes, as a stand-in for a lossless file.
    static let mp3BitRate = 320_000
    /// Videos' JPEG_TN stills (`/thumb/…`), made once each, on `stills`' thread: a first still costs tens of
    /// milliseconds of decoding, which on `pool` would hold every Browse behind it.
    let thumbnails = VideoThumbnails()
    let stills = NIOThreadPool(numberOfThreads: 1)
    private let state = Mutex(State())

    private struct State {
        var tree: MediaTree?
        /// The last snapshot the watcher saw: the tree may be over an older one, patched since in nothing the
        /// tree shows (`Lineage`).
        var lastSnapshot: LibrarySnapshot?
        var watch: LiveView.Watch?
        var channels: [Channel] = []
        var advertiser: SSDPAdvertiser?
        var port: Int?
        var addresses: [String] = []
        var connections = 0
    }

    /// A view given to `init` whose schema lacks `viewSchema`'s slots.
    public struct ViewMismatch: Error, CustomStringConvertible {
        public var description: String { "the shared library view was not built with DLNAServer.viewSchema" }
    }

    /// Builds the view (blocking: call it before serving), or serves from `view` (shared with the other
    /// fronts of `mlib serve`, built with `viewSchema`'s slots).
    public init(library: Library, configuration: DLNAServerConfiguration, view: LiveView? = nil) throws {
        if let view, view.schema.slotOffset(of: .dlna) == nil { throw ViewMismatch() }
        self.library = library
        self.configuration = configuration
        self.view = try view ?? LiveView(store: library.store, schema: .dlna)
        slotBase = self.view.schema.slotOffset(of: .dlna) ?? 0
        uuid = DeviceIdentity.uuid(file: configuration.uuidFile)
        friendlyName = configuration.friendlyName ?? "mlib on \(ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "this host")"
        eventing = Eventing(group: group)
        transcoding = TranscodeSlots(limit: configuration.maximumTranscodes)
        pool.start()
        stills.start()
    }

    /// The UUID file's default place: beside the library (the SQLite file, or the users' key file's folder
    /// for PostgreSQL), so one library keeps one device identity.
    public static func defaultUUIDFile(for locator: LibraryLocator) -> String {
        let keyFile = PasswordVault.defaultKeyFile(for: locator)
        return (keyFile.hasSuffix(".users-key") ? String(keyFile.dropLast(".users-key".count)) : keyFile) + ".dlna-uuid"
    }

    public var boundPort: Int? { state.withLock { $0.port } }

    /// Where the device description is, one URL per interface served.
    public var descriptionURLs: [String] { state.withLock { s in s.addresses.map { "http://\($0):\(s.port ?? 0)/description.xml" } } }

    var tree: MediaTree { state.withLock { $0.tree! } }

    /// Binds HTTP on each interface's address and starts SSDP; returns once TVs can find it.
    public func start() async throws {
        let interfaces = try AnnouncedInterface.resolve(configuration.interfaces)
        guard !interfaces.isEmpty else { throw DLNAServerError("no IPv4 interface to serve on (name one with --dlna-interface)") }
        let first = view.snapshot
        state.withLock { $0.tree = MediaTree(first, base: slotBase, updateID: 1); $0.lastSnapshot = first }
        // Each new snapshot is a new SystemUpdateID (called on the view's queue, one at a time), unless it was
        // patched in nothing the tree shows (a rating or a play: a TV would browse its whole view again).
        let slots = slotBase..<slotBase + ViewSchema.dlna.slots.count
        let watch = view.watch(every: configuration.checkInterval) { [weak self] snapshot in
            guard let self else { return }
            let unseen = state.withLock { s -> Bool in
                defer { s.lastSnapshot = snapshot }
                guard let last = s.lastSnapshot, let lineage = snapshot.lineage, lineage.follows(last) else { return false }
                return !lineage.touches(slots: slots, properties: [])
            }
            if unseen { return }
            let number = state.withLock { $0.tree.map { $0.updateID &+ 1 } ?? 1 }
            let tree = MediaTree(snapshot, base: slotBase, updateID: number)
            state.withLock { $0.tree = tree }
            eventing.changed(systemUpdateID: number)
        }
        state.withLock { $0.watch = watch }
        var port = configuration.port
        for interface in interfaces {
            let channel = try await bootstrap().bind(host: interface.address, port: port).get()
            port = channel.localAddress?.port ?? port
            state.withLock { $0.channels.append(channel); $0.port = port; $0.addresses.append(interface.address) }
        }
        let messages = SSDPMessages(uuid: uuid, maxAge: configuration.maxAge)
        let bound = port
        let advertiser = SSDPAdvertiser(messages: messages, interfaces: interfaces, group: group) { "http://\($0.address):\(bound)/description.xml" }
        state.withLock { $0.advertiser = advertiser }
        try await advertiser.start()
    }

    private func bootstrap() -> ServerBootstrap {
        let limits = configuration
        return ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [weak self] channel in
                guard let self else { return channel.close() }
                let admitted = state.withLock { s -> Bool in
                    guard s.connections < limits.maximumConnections else { return false }
                    s.connections += 1
                    return true
                }
                guard admitted else { return channel.close() }
                channel.closeFuture.whenComplete { [weak self] _ in self?.state.withLock { $0.connections -= 1 } }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: limits.readTimeout))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(HTTPHandler(server: self))
                }
            }
            .childChannelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
    }

    /// Says byebye, closes the listeners and connections, and stops watching the view.
    public func stop() async {
        let (advertiser, channels, watch) = state.withLock { s in
            defer { s.advertiser = nil; s.channels = []; s.watch = nil }
            return (s.advertiser, s.channels, s.watch)
        }
        await advertiser?.stop()
        for channel in channels { try? await channel.close().get() }
        if let watch { view.stop(watch) }
        eventing.stop()
        try? await pool.shutdownGracefully()
        try? await stills.shutdownGracefully()
        try? await transcoding.threads.shutdownGracefully()
        try? await group.shutdownGracefully()
    }

    // MARK: Answers (on the pool's thread, or from memory on the event loop)

    /// The most a Browse answered on the event loop may list: its time there stays well under a millisecond.
    static let largestPageOnLoop = 200

    /// A Browse made from the tree in memory, answered on the event loop: the hop to the pool's thread and
    /// back was a third of a small Browse's time (two wake-ups). Nil, for the pool to answer, for any other
    /// call, a sorted or larger page (`largestPageOnLoop`; RequestedCount 0 asks for every child), or when the
    /// answer would read the disk or the store (`NeedsDisk`: a folder's cover not looked up yet, a video's
    /// subtitles, the playlists).
    func answerOnLoop(_ request: inout HTTPRequest) -> HTTPAnswer? {
        guard request.method == .POST, request.path == DeviceDescription.contentDirectory.controlPath,
              let call = SOAPCall.parse(request.body) else { return nil }
        request.call = call
        guard Self.mayAnswerOnLoop(call) else { return nil }
        return try? control(DeviceDescription.contentDirectory, call, request, tree: tree, base: base(of: request), onLoop: true)
    }

    /// An unsorted Browse of at most `largestPageOnLoop` objects.
    static func mayAnswerOnLoop(_ call: SOAPCall) -> Bool {
        guard call.action == "Browse", (call.arguments["SortCriteria"] ?? "").allSatisfy({ $0 == " " }),
              let count = call.arguments["RequestedCount"].flatMap({ Int($0) }) else { return false }
        return (1...largestPageOnLoop).contains(count)
    }

    private func base(of request: HTTPRequest) -> String { "http://\(request.local):\(boundPort ?? configuration.port)" }

    func answer(_ request: HTTPRequest) -> HTTPAnswer {
        let path = request.path
        let tree = self.tree
        let base = base(of: request)
        switch (request.method, path) {
        case (.GET, "/description.xml"), (.HEAD, "/description.xml"):
            return .xml(DeviceDescription.device(uuid: uuid, friendlyName: friendlyName))
        case (.GET, _) where path.hasPrefix("/icons/"):
            guard let icon = DeviceIcons.all.first(where: { $0.path == path }) else { return .text(.notFound, "no such icon\n") }
            return .bytes(.ok, [("Content-Type", "image/png")], ByteBuffer(bytes: icon.png))
        case (.GET, _), (.HEAD, _):
            if let service = DeviceDescription.services.first(where: { $0.scpdPath == path }) { return .xml(DeviceDescription.scpd(service)) }
            if path.hasPrefix("/media/") { return media(request, tree: tree, base: base) }
            if path.hasPrefix("/transcode/") { return transcode(request, tree: tree) }
            if path.hasPrefix("/art/") { return art(path, tree: tree) }
            if path.hasPrefix("/thumb/") { return thumbnail(path, tree: tree) }
            if path.hasPrefix("/subtitle/") { return subtitle(request, tree: tree) }
            return .text(.notFound, "not found\n")
        case (.POST, _):
            guard let service = DeviceDescription.services.first(where: { $0.controlPath == path }) else { return .text(.notFound, "not found\n") }
            guard let call = request.call ?? SOAPCall.parse(request.body) else {
                return .xml(SOAPCall.fault(.invalidAction), status: .internalServerError)
            }
            // Off the event loop nothing needs the disk in vain: `NeedsDisk` is never thrown here.
            return (try? control(service, call, request, tree: tree, base: base, onLoop: false))
                ?? .xml(SOAPCall.fault(.actionFailed), status: .internalServerError)
        case (.SUBSCRIBE, _), (.UNSUBSCRIBE, _):
            guard let service = DeviceDescription.services.first(where: { $0.eventPath == path }) else { return .text(.notFound, "not found\n") }
            return eventing.answer(request, service: service, tree: tree)
        default:
            return .text(.methodNotAllowed, "method not allowed\n")
        }
    }

    /// `call`'s answer, a UPnP fault for its errors; `onLoop`: made without reading the disk or the store, or
    /// `NeedsDisk` thrown.
    private func control(_ service: DeviceDescription.Service, _ call: SOAPCall, _ request: HTTPRequest, tree: MediaTree, base: String,
                         onLoop: Bool) throws(NeedsDisk) -> HTTPAnswer {
        do {
            let out: [(String, SOAPValue)]
            switch service.name {
            case DeviceDescription.contentDirectory.name:
                let library = self.library
                let nodes = onLoop
                    ? TreeNodes(tree: tree, playlists: { throw NeedsDisk() }, playlistItems: { _ in throw NeedsDisk() })
                    : TreeNodes(tree: tree, playlists: { try library.store.playlists() },
                                playlistItems: { try library.items(of: $0).map(\.persistentID) })
                let writer = DIDLWriter(tree: tree, baseURL: base, covers: onLoop ? nil : library.covers,
                                        renderer: RendererProfile.of(userAgent: request.headers.first(name: "User-Agent")))
                let directory = ContentDirectory(nodes: nodes, writer: writer) { predicate in
                    try library.store.itemIDs(MediaQuery(filter: predicate))
                }
                out = try directory.call(call)
            case DeviceDescription.connectionManager.name: out = try ConnectionManager.call(call).map { ($0, .text($1)) }
            default: out = try MediaReceiverRegistrar.call(call).map { ($0, .text($1)) }
            }
            return .xml(bytes: SOAPCall.response(service: service.type, action: call.action, out))
        } catch let error as NeedsDisk {
            throw error
        } catch let error as UPnPError {
            return .xml(SOAPCall.fault(error), status: .internalServerError)
        } catch {
            return .xml(SOAPCall.fault(UPnPError(code: 501, text: "Action Failed: \(error)")), status: .internalServerError)
        }
    }

    /// `/media/<item id>[.ext]`: the item's file, from the view (the request names an id, never a path).
    /// A video's stream names its sidecar subtitles in `CaptionInfo.sec` when the TV asks (`getCaptionInfo.sec`).
    private func media(_ request: HTTPRequest, tree: MediaTree, base: String) -> HTTPAnswer {
        guard let (id, item) = itemIn(request.path, prefix: "/media/", tree: tree) else { return .text(.notFound, "no such item\n") }
        guard (try? library.reachesFile(ofItem: id)) ?? false else { return .text(.notFound, "not on this host\n") }
        let writer = DIDLWriter(tree: tree, baseURL: base, covers: library.covers)
        let path = tree.view.paths[Int(item)].string
        var extra: [(String, String)] = []
        if request.headers.first(name: "getCaptionInfo.sec") == "1", tree.value(item, MediaTree.Slot.video) != nil,
           Subtitles.sidecar(of: path) != nil {
            extra.append(("CaptionInfo.sec", writer.subtitleURL(item)))
        }
        return Streaming.answer(request, path: path, roots: tree.view.roots, profile: writer.profile(item), extraHeaders: extra)
    }

    /// `/subtitle/<item id>.srt`: a video's sidecar `.srt`, found beside the video's file (never a path from the request).
    private func subtitle(_ request: HTTPRequest, tree: MediaTree) -> HTTPAnswer {
        guard let (id, item) = itemIn(request.path, prefix: "/subtitle/", tree: tree), tree.value(item, MediaTree.Slot.video) != nil,
              (try? library.reachesFile(ofItem: id)) ?? false,
              let sidecar = Subtitles.sidecar(of: tree.view.paths[Int(item)].string)
        else { return .text(.notFound, "no subtitles\n") }
        return Streaming.answer(request, path: sidecar, roots: tree.view.roots, profile: MediaProfile(mimeType: Subtitles.mimeType, profile: nil))
    }

    /// `/transcode/<item id>.<lpcm|mp3>`: an audio item made LPCM or MP3 as it is sent (chunked, no length,
    /// no Range). When every transcoding slot stays taken for 2 s the answer is 503 with Retry-After, so the
    /// CPU stays bounded whatever the renderers ask.
    private func transcode(_ request: HTTPRequest, tree: MediaTree) -> HTTPAnswer {
        guard let (id, item) = itemIn(request.path, prefix: "/transcode/", tree: tree),
              tree.value(item, MediaTree.Slot.video) == nil,
              let format = TranscodeFormat.allCases.first(where: { request.path.hasSuffix(".\($0.suffix)") && $0 != .opus })
        else { return .text(.notFound, "no such transcode\n") }
        guard (try? library.reachesFile(ofItem: id)) ?? false else { return .text(.notFound, "not on this host\n") }
        let writer = DIDLWriter(tree: tree, baseURL: "", covers: library.covers)
        let shape = writer.transcodeShape(item, format)
        var headers = [("Content-Type", MediaProfile.transcode(format, sampleRate: shape.rate, channels: shape.channels).mimeType),
                       ("transferMode.dlna.org", "Streaming"), ("Cache-Control", "no-cache"),
                       ("contentFeatures.dlna.org", MediaProfile.transcode(format, sampleRate: shape.rate, channels: shape.channels).contentFeatures)]
        if request.method == .HEAD { return .empty(.ok, headers) }
        // Taken by the connection's handler before the request came here (`HTTPHandler.acquire`).
        guard let slot = request.transcodeSlot else { return Self.allSlotsBusy }
        do {
            // Opened by the containment rule (as `/media/`); FFmpeg opens the descriptor's file by its /proc name.
            guard let file = try? FileContainment(roots: tree.view.roots).open(tree.view.paths[Int(item)]) else {
                slot.release()
                return .text(.notFound, "the file is not there\n")
            }
            let transcoder = try withExtendedLifetime(file) {
                try Transcoder(path: file.procPath, format: format, bitRate: format == .mp3 ? Self.mp3BitRate : nil)
            }
            // The transcoder's own shape, should the view's numbers be stale.
            if format == .lpcm { headers[0].1 = MediaProfile.transcode(format, sampleRate: transcoder.sampleRate, channels: transcoder.channels).mimeType }
            return .transcode(headers, TranscodeSession(transcoder, slot: slot), transcoding.threads)
        } catch {
            slot.release()
            return .text(.internalServerError, "cannot transcode: \((error as? DecodeError)?.message ?? "\(error)")\n")
        }
    }

    static let allSlotsBusy = HTTPAnswer.bytes(.serviceUnavailable, [("Retry-After", "5"), ("Content-Type", "text/plain; charset=utf-8")],
                                               ByteBuffer(string: "every transcoding slot is busy\n"))

    /// `/art/<item id>.jpg`: the embedded picture or the folder's cover, as the API's getCoverArt finds it.
    private func art(_ path: String, tree: MediaTree) -> HTTPAnswer {
        guard let (id, item) = itemIn(path, prefix: "/art/", tree: tree), (try? library.reachesFile(ofItem: id)) ?? false,
              let picture = library.covers.cover(of: tree.view.paths[Int(item)], roots: tree.view.roots)
        else { return .text(.notFound, "no art\n") }
        return .bytes(.ok, [("Content-Type", picture.mimeType), ("contentFeatures.dlna.org", "DLNA.ORG_PN=JPEG_TN;DLNA.ORG_OP=00;DLNA.ORG_CI=0;DLNA.ORG_FLAGS=00D00000000000000000000000000000"),
                            ("transferMode.dlna.org", "Interactive")], ByteBuffer(bytes: picture.bytes))
    }

    /// `/thumb/<item id>.jpg`: a video's still (JPEG_TN), made from a frame on the first request (on `stills`'
    /// thread, the file opened here by the containment rule and decoded there by its /proc name), then cached.
    private func thumbnail(_ path: String, tree: MediaTree) -> HTTPAnswer {
        let missing = HTTPAnswer.text(.notFound, "no thumbnail\n")
        guard let (id, item) = itemIn(path, prefix: "/thumb/", tree: tree), tree.value(item, MediaTree.Slot.video) != nil,
              (try? library.reachesFile(ofItem: id)) ?? false,
              let file = try? FileContainment(roots: tree.view.roots).open(tree.view.paths[Int(item)])
        else { return missing }
        let thumbnails = self.thumbnails
        if let jpeg = withExtendedLifetime(file, { thumbnails.cached(id: id, path: file.procPath) }) { return Self.still(jpeg) }
        return .later(stills) {
            withExtendedLifetime(file) { thumbnails.jpeg(id: id, path: file.procPath) }.map(Self.still) ?? .text(.notFound, "no thumbnail\n")
        }
    }

    private static func still(_ jpeg: [UInt8]) -> HTTPAnswer {
        .bytes(.ok, [("Content-Type", "image/jpeg"), ("contentFeatures.dlna.org", MediaProfile.Thumbnail.contentFeatures),
                     ("transferMode.dlna.org", "Interactive")], ByteBuffer(bytes: jpeg))
    }

    private func itemIn(_ path: String, prefix: String, tree: MediaTree) -> (Int64, Int32)? {
        let name = path.dropFirst(prefix.count)
        let digits = name.prefix { $0.isNumber }
        guard let id = Int64(digits), let item = tree.itemByID[id] else { return nil }
        return (id, item)
    }
}

/// What an answer made on the event loop throws where it would read the disk or the store: the pool's
/// thread answers instead (`DLNAServer.answerOnLoop`).
struct NeedsDisk: Error {}
