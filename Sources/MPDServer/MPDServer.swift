import Foundation
import Library
import MediaIndex
import NIOCore
import NIOPosix
import Playback

/// How `mlib serve` listens and behaves.
public struct MPDServerConfiguration: Sendable {
    /// TCP address to listen on (nil: no TCP).
    public var host: String? = "127.0.0.1"
    public var port: Int = 6600
    /// A Unix socket to listen on as well (or instead, with `host` nil).
    public var socketPath: String?
    /// When set, clients have no permission until they send `password`.
    public var password: String?
    /// The library users' key file (nil: beside the library, `PasswordVault.defaultKeyFile`): `password
    /// user:secret` logs a connection in as that user of the library (`Users`).
    public var keyFile: String?
    /// Whether plays and skips are written to the library (real-time device playback; see `mlib serve`).
    public var recordPlays = false
    /// What `random 1` turns on: `songs`, or `albums` to shuffle whole albums.
    public var randomMode: ShuffleMode = .songs
    /// The one output shown by `outputs`.
    public var outputName = "mlib"
    public var outputPlugin = "null"
    /// Longest request line accepted; a longer one closes the connection.
    public var maximumLineLength = 64 * 1024
    /// Most bytes a client's answers may hold, built and not yet sent (MPD's `max_output_buffer_size`,
    /// 8 MiB): a command or command list whose answer goes past it closes the client, as MPD does.
    public var maximumOutputBuffer = 8 * 1024 * 1024
    /// A client that sends nothing for this long is disconnected, unless it waits in `idle` (MPD's
    /// `connection_timeout`, 60 s).
    public var connectionTimeout: Duration = .seconds(60)
    /// Connections served at once (MPD's `max_connections`, 100); one more is refused with an ACK line.
    public var maximumConnections = 100

    public init() {}
}

/// An MPD protocol server (protocol 0.23) over a `MusicPlayer` and a library store: every MPD client
/// (mpc, ncmpcpp, Cantata, phone apps) drives mlib's player and browses its library.
///
/// Layout: `RequestParser` (protocol lines), `ClientSession` (connections, command lists, idle),
/// `CommandTable` and the `*Commands` files (dispatch), `LibraryBrowser`, `FilterCompiler`, `SongWriter`
/// and `LibraryURIs` (mapping to the library), `ServerCore` (shared state on one event-loop thread).
/// The library commands answer from the in-memory view (`Library.LiveView`); every store call runs on
/// the core's store thread (`CommandContext.offLoop`), never on the event loop.
public final class MPDServer: @unchecked Sendable {
    public static let protocolVersion = "0.23.5"

    let core: ServerCore
    private let group: MultiThreadedEventLoopGroup
    private var channels: [any Channel] = []
    private let reserve = DescriptorReserve()

    /// `library`: opened with its locator (`Library.open`), so that `update` takes the scan lock its store needs.
    /// `view`: an in-memory view of `library` shared with another front (its schema from
    /// `MPDServer.viewSchema`, first, e.g. merged with the Subsonic server's); nil: the server builds its own.
    public init(player: MusicPlayer, library: Library, configuration: MPDServerConfiguration, view: LiveView? = nil) throws {
        // One thread: the connections and the shared state (ServerCore) all live on it. The library view
        // is built here, before any client connects (as mpd loads its database), on the caller's thread.
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        core = try ServerCore(player: player, library: library, configuration: configuration, loop: group.next(), view: view)
        core.watchLibrary()
    }

    /// Binds the TCP port and/or the Unix socket; returns once clients can connect. When one of them
    /// cannot be bound, the other is closed again (call `stop` to end the event loop).
    public func start() async throws {
        let configuration = core.configuration
        do {
            if let host = configuration.host {
                channels.append(try await bootstrap().bind(host: host, port: configuration.port).get())
            }
            if let socketPath = configuration.socketPath {
                channels.append(try await bootstrap().bind(unixDomainSocketPath: socketPath, cleanupExistingSocketFile: true).get())
            }
        } catch {
            for channel in channels { try? await channel.close().get() }
            channels = []
            throw error
        }
    }

    /// The TCP port actually bound (useful with port 0).
    public var boundPort: Int? { channels.lazy.compactMap { $0.localAddress?.port }.first }

    /// Closes the listening sockets and every connection.
    public func stop() async throws {
        for channel in channels { try? await channel.close().get() }
        channels = []
        core.detach()
        try await group.shutdownGracefully()
        if let socketPath = core.configuration.socketPath { unlink(socketPath) }
    }

    private func bootstrap() -> ServerBootstrap {
        let core = self.core
        let configuration = core.configuration
        let connections = ConnectionCount()
        let reserve = self.reserve
        let timeout = TimeAmount.nanoseconds(Int64(configuration.connectionTimeout.components.seconds) * 1_000_000_000
                                             + configuration.connectionTimeout.components.attoseconds / 1_000_000_000)
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // When accept fails for want of file descriptors, the reserve one is given up so the
            // connection can be accepted and refused (`DescriptorReserve`): the loop spun at 70% CPU.
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DescriptorReserve.AcceptFailureHandler(reserve))
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // Back-pressure: a channel whose unsent answer passes 1 MiB is unwritable, and its client's next
            // commands wait until the socket drains (ClientSession), so one slow reader holds no one up.
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 256 * 1024, high: 1024 * 1024))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Every channel runs on the server's one loop thread: the count needs no lock.
                    if reserve.isExhausted {
                        channel.closeFuture.whenComplete { _ in reserve.restore() }
                        try channel.pipeline.syncOperations.addHandler(ConnectionRefusal(reason: "the server has no file descriptor left"))
                        return
                    }
                    guard connections.value < configuration.maximumConnections else {
                        let reason = "too many connections (the server serves \(configuration.maximumConnections) at once)"
                        try channel.pipeline.syncOperations.addHandler(ConnectionRefusal(reason: reason))
                        return
                    }
                    connections.value += 1
                    channel.closeFuture.whenComplete { _ in connections.value -= 1 }
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: timeout))
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder(maximumLength: configuration.maximumLineLength)))
                    try channel.pipeline.syncOperations.addHandler(SessionHandler(core: core))
                }
            }
    }
}

/// The connections open now, counted on the server's loop (see `MPDServerConfiguration.maximumConnections`).
private final class ConnectionCount: @unchecked Sendable {
    var value = 0
}
