import Foundation
import NIOCore
import NIOPosix

/// SSDP on the interfaces asked: one UDP socket per interface on port 1900, joined to the multicast group
/// there, sending alive notices at start and every third of `max-age`, byebye at stop, and answering
/// M-SEARCH — only from that interface's subnet, so a server told to serve `eth0` says nothing to the rest.
final class SSDPAdvertiser: @unchecked Sendable {   // `channels`/`timer` are set in start and read in stop
    private let messages: SSDPMessages
    private let interfaces: [AnnouncedInterface]
    private let location: @Sendable (AnnouncedInterface) -> String
    private let group: EventLoopGroup
    private var channels: [(AnnouncedInterface, Channel)] = []
    private var timer: RepeatedTask?

    init(messages: SSDPMessages, interfaces: [AnnouncedInterface], group: EventLoopGroup,
         location: @escaping @Sendable (AnnouncedInterface) -> String) {
        self.messages = messages
        self.interfaces = interfaces
        self.group = group
        self.location = location
    }

    func start() async throws {
        let multicast = try SocketAddress(ipAddress: SSDPMessages.multicastAddress, port: SSDPMessages.port)
        for interface in interfaces {
            let handler = SearchHandler(messages: messages, interface: interface, location: location(interface))
            let channel = try await DatagramBootstrap(group: group)
                .channelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                // SO_REUSEPORT (15 on Linux; NIO names no constant for it): another SSDP server (minidlna) may hold 1900 too.
                .channelOption(ChannelOptions.Types.SocketOption(level: .socket, name: .init(rawValue: 15)), value: 1)
                .channelInitializer { $0.pipeline.addHandler(handler) }
                .bind(host: "0.0.0.0", port: SSDPMessages.port).get()
            guard let multicastChannel = channel as? MulticastChannel else { throw DLNAServerError("SSDP: no multicast channel") }
            try await multicastChannel.joinGroup(multicast, device: interface.device).get()
            // Notices leave by this interface (not by the default route's, which may be none).
            guard let options = channel as? SocketOptionProvider else { throw DLNAServerError("SSDP: no socket options") }
            try await options.setIPMulticastIF(in_addr(s_addr: UInt32(bigEndian: interface.addressBits))).get()
            try await options.setIPMulticastTTL(2).get()
            channels.append((interface, channel))
        }
        send(alive: true)
        let every = TimeAmount.seconds(Int64(max(messages.maxAge / 3, 1)))
        timer = group.next().scheduleRepeatedTask(initialDelay: every, delay: every) { [weak self] _ in self?.send(alive: true) }
    }

    func stop() async {
        timer?.cancel()
        send(alive: false)
        for (_, channel) in channels { try? await channel.close().get() }
        channels = []
    }

    private func send(alive: Bool) {
        guard let multicast = try? SocketAddress(ipAddress: SSDPMessages.multicastAddress, port: SSDPMessages.port) else { return }
        for (interface, channel) in channels {
            for text in messages.notify(alive: alive, location: location(interface)) {
                let buffer = channel.allocator.buffer(string: text)
                channel.writeAndFlush(AddressedEnvelope(remoteAddress: multicast, data: buffer), promise: nil)
            }
        }
    }

    /// Answers one interface's M-SEARCHes.
    private final class SearchHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        typealias OutboundOut = AddressedEnvelope<ByteBuffer>
        let messages: SSDPMessages
        let interface: AnnouncedInterface
        let location: String

        init(messages: SSDPMessages, interface: AnnouncedInterface, location: String) {
            self.messages = messages
            self.interface = interface
            self.location = location
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let envelope = unwrapInboundIn(data)
            guard let peer = AnnouncedInterface.bits(of: envelope.remoteAddress), interface.holds(peer),
                  envelope.data.readableBytes < 4096,
                  let target = SSDPMessages.searchTarget(of: String(buffer: envelope.data)) else { return }
            for text in messages.answers(searchTarget: target, location: location) {
                let buffer = context.channel.allocator.buffer(string: text)
                context.write(wrapOutboundOut(AddressedEnvelope(remoteAddress: envelope.remoteAddress, data: buffer)), promise: nil)
            }
            context.flush()
        }

        /// A datagram that could not be sent (a peer gone) must not end SSDP.
        func errorCaught(context: ChannelHandlerContext, error: any Error) {}
    }
}
