import Foundation
import NIOCore
import NIOPosix

/// How both ends of a connection to a PostgreSQL library notice a link that went dead — a host cut off
/// mid-scan (a laptop closed, a cable pulled, a NAS rebooting): nothing arrives and nothing is refused, so
/// without these a statement waits for the kernel's quarter of an hour of retransmissions (issue 38: a scan
/// hung 341 s, ended only by the client's own statement deadline) and the server keeps the lost host's
/// session, and with it its scan lock, until the same.
///
/// On every TCP connection, with or without TLS:
/// - the client: keepalives probe a wait for an answer after 5 s of silence, 3 times 2 s apart, and data
///   unacknowledged for 15 s ends the connection (`TCP_USER_TIMEOUT`, which also bounds the keepalives),
///   so a statement over a dead link fails within about 15 s;
/// - the server (startup parameters): keepalives after 10 s, 3 times 5 s apart, and `tcp_user_timeout` 15 s
///   for answers it cannot deliver, so the lost host's session — and its advisory locks — end within about
///   25 s; a transaction left idle is ended after `idleInTransactionTimeout` in any case.
enum PostgresLinkTimeouts {
    /// Client keepalives: seconds of silence before the first probe, seconds between probes, probes.
    static let keepaliveIdle = 5, keepaliveInterval = 2, keepaliveCount = 3
    /// Milliseconds data may stay unacknowledged before the connection is given up (both ends).
    static let userTimeout = 15_000

    /// The server's side, as startup parameters (PostgreSQL 12 or later has all three).
    static let serverParameters: [(String, String)] = [
        ("tcp_keepalives_idle", "10"), ("tcp_keepalives_interval", "5"), ("tcp_keepalives_count", "3"),
        ("tcp_user_timeout", String(userTimeout)),
    ]

    /// A TCP bootstrap with the client's settings.
    static func bootstrap(on loop: any EventLoop, connectTimeout seconds: Double) -> ClientBootstrap {
        let tcp = SocketOptionLevel(IPPROTO_TCP)
        return ClientBootstrap(group: loop).connectTimeout(.milliseconds(Int64(seconds * 1000)))
            .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
            .channelOption(ChannelOptions.socket(tcp, SocketOptionName(TCP_KEEPIDLE)), value: SocketOptionValue(keepaliveIdle))
            .channelOption(ChannelOptions.socket(tcp, SocketOptionName(TCP_KEEPINTVL)), value: SocketOptionValue(keepaliveInterval))
            .channelOption(ChannelOptions.socket(tcp, SocketOptionName(TCP_KEEPCNT)), value: SocketOptionValue(keepaliveCount))
            .channelOption(ChannelOptions.socket(tcp, SocketOptionName(TCP_USER_TIMEOUT)), value: SocketOptionValue(userTimeout))
    }

    /// A plain TCP channel to `host:port` with the client's settings, for postgres-nio to speak over
    /// (its own bootstrap takes no socket options); TLS, when asked for, is postgres-nio's on top of it.
    static func connect(host: String, port: Int, on loop: any EventLoop, within seconds: Double) throws -> any Channel {
        try PostgresSession.answer(bootstrap(on: loop, connectTimeout: seconds).connect(host: host, port: port),
                                   within: seconds + 5, onTimeout: {})
    }
}
