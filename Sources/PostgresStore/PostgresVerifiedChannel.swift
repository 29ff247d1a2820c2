import Foundation
import MediaIndex
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import PostgresNIO

/// A TLS channel to a PostgreSQL server for `sslmode=verify-full` with a host *name*, checked as libpq
/// checks it: the certificate must name that host among its DNS names (the common name only when it has no
/// subject alternative name). NIO SSL's own check also accepts a certificate whose IP address is the
/// peer's, whatever name was asked for (issue 38: any trusted certificate carrying the server's IP passed).
///
/// mlib makes the connection itself — the SSLRequest, the handshake (the chain checked against the root
/// file by BoringSSL), the name check, all before a byte of the startup or the password is sent — and
/// hands the encrypted channel to postgres-nio, which speaks the protocol over it as over plain TCP.
enum PostgresVerifiedChannel {
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether `location` with `tls` takes this path: verify-full, over TCP, to a host name (an IP address
    /// is checked against the certificate's addresses, which NIO SSL does right).
    static func applies(_ location: PostgresLocation) -> Bool {
        guard location.tls.mode == .verifyFull, case .tcp(let host, _) = location.endpoint else { return false }
        return !isIPAddress(host)
    }

    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// Connects to `host:port`, negotiates TLS with `context` (whose verification checks the chain, not the
    /// name) and checks the name; the channel is ready for postgres-nio's startup (`tls: .disable`).
    static func connect(host: String, port: Int, context: NIOSSLContext, on loop: any EventLoop, within seconds: Double) throws -> any Channel {
        // A link that goes dead (a NAS rebooting, a laptop closed) ends a statement in seconds (PostgresLinkTimeouts).
        let channel = try PostgresLinkTimeouts.connect(host: host, port: port, on: loop, within: seconds)
        do {
            let answer = loop.makePromise(of: UInt8.self)
            try PostgresSession.answer(loop.submit { try channel.pipeline.syncOperations.addHandler(FirstByte(answer)) },
                                       within: seconds, onTimeout: {})
            // SSLRequest: length 8, code 80877103.
            try PostgresSession.answer(channel.writeAndFlush(ByteBuffer(bytes: [0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f])), within: seconds, onTimeout: {})
            guard try PostgresSession.answer(answer.futureResult, within: seconds, onTimeout: {}) == UInt8(ascii: "S") else {
                throw Refused(description: "the server does not accept TLS (sslmode=verify-full)")
            }
            let handshake = loop.makePromise(of: Void.self)
            try PostgresSession.answer(loop.submit {
                try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: context, serverHostname: host))
                try channel.pipeline.syncOperations.addHandler(HandshakeDone(handshake))
            }, within: seconds, onTimeout: {})
            try PostgresSession.answer(handshake.futureResult, within: seconds, onTimeout: {})
            let certificate = try PostgresSession.answer(loop.submit {
                try channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self).peerCertificate
            }, within: seconds, onTimeout: {})
            guard let certificate, names(certificate).contains(where: { matches($0, host) }) else {
                throw Refused(description: "the server's certificate does not name \(host) (sslmode=verify-full)")
            }
            return channel
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }

    /// The names a certificate gives its server, as libpq reads them: its DNS subject alternative names, or,
    /// when it has no subject alternative name at all, its common name.
    static func names(_ certificate: NIOSSLCertificate) -> [String] {
        var dns: [String] = []
        var any = false
        for name in certificate._subjectAlternativeNames() {
            any = true
            if name.nameType == .dnsName { dns.append(String(decoding: Array(name.contents), as: UTF8.self)) }
        }
        if any { return dns }
        return certificate.subjectName.filter { $0.type == .commonName }.map(\.value)
    }

    /// A certificate's name for `host`: equal ignoring case, or a wildcard `*.example.com` standing for one
    /// whole leftmost label, as libpq allows.
    static func matches(_ name: String, _ host: String) -> Bool {
        let (name, host) = (name.lowercased(), host.lowercased())
        if name == host { return true }
        guard name.hasPrefix("*."), let dot = host.firstIndex(of: ".") else { return false }
        return host[dot...] == name.dropFirst() && host.distance(from: host.startIndex, to: dot) > 0
    }

    /// The server's one-byte answer to the SSLRequest ('S' or 'N'); removes itself after it.
    private final class FirstByte: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let promise: EventLoopPromise<UInt8>
        init(_ promise: EventLoopPromise<UInt8>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            if let byte = buffer.readInteger(as: UInt8.self) { promise.succeed(byte) }
            context.pipeline.syncOperations.removeHandler(self, promise: nil)
        }
        func errorCaught(context: ChannelHandlerContext, error: any Error) { promise.fail(error) }
        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(PostgresSession.ConnectionLost())
            context.fireChannelInactive()
        }
    }

    /// The end of the TLS handshake; removes itself after it.
    private final class HandshakeDone: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let promise: EventLoopPromise<Void>
        init(_ promise: EventLoopPromise<Void>) { self.promise = promise }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case TLSUserEvent.handshakeCompleted? = event as? TLSUserEvent {
                promise.succeed(())
                context.pipeline.syncOperations.removeHandler(self, promise: nil)
            }
            context.fireUserInboundEventTriggered(event)
        }
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
            context.fireErrorCaught(error)
        }
        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(PostgresSession.ConnectionLost())
            context.fireChannelInactive()
        }
    }
}
