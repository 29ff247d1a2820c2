import NIOCore

/// Splits the byte stream into request lines. A line longer than `maximumLength` closes the connection
/// (MPD does the same when its input buffer fills): nothing is buffered without bound.
final class LineFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    struct LineTooLong: Error {}

    let maximumLength: Int
    private var searchedUpTo = 0

    init(maximumLength: Int) { self.maximumLength = maximumLength }

    func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        let start = view.index(view.startIndex, offsetBy: searchedUpTo)
        guard let newline = view[start...].firstIndex(of: UInt8(ascii: "\n")) else {
            searchedUpTo = view.count
            if view.count > maximumLength { throw LineTooLong() }
            return .needMoreData
        }
        let length = newline - view.startIndex
        guard length <= maximumLength else { throw LineTooLong() }
        let line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        searchedUpTo = 0
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A last line without its newline (a client that disconnected mid-command) is dropped, as MPD does.
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}

/// Hands each line to the connection's `ClientSession`.
final class SessionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let core: ServerCore
    private var session: ClientSession?

    init(core: ServerCore) { self.core = core }

    func channelActive(context: ChannelHandlerContext) {
        let session = ClientSession(core: core, channel: context.channel)
        self.session = session
        session.start()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var line = unwrapInboundIn(data)
        session?.beginRead()
        session?.receive(line.readBytes(length: line.readableBytes) ?? [])
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        session?.endOfRead()
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        session?.disconnected()
        session = nil
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { session?.becameWritable() }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .read? = event as? IdleStateHandler.IdleStateEvent { session?.receivedNothing() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A line too long, a reset connection: end this client only.
        context.close(promise: nil)
    }
}

/// Answers a connection the server cannot take (over `maximumConnections`, or no file descriptor left)
/// with one ACK line and closes it (MPD closes such a connection silently; a line tells the user why).
final class ConnectionRefusal: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let reason: String
    init(reason: String) { self.reason = reason }

    func channelActive(context: ChannelHandlerContext) {
        let line = "ACK [5@0] {} \(reason)\n"
        // On the channel's own loop, where the context may be used.
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: line))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
