import NIOCore
import NIOHTTP1

/// One HTTP connection: reads a request (its body bounded), has the server answer it off the event loop,
/// writes the answer (a file by sendfile), and closes a connection idle past the read timeout between
/// requests, or one whose client stops reading an answer for the write timeout.
final class HTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: DLNAServer
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    private var busy = false

    init(server: DLNAServer) { self.server = server }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body = []
            tooLarge = false
        case .body(var buffer):
            if body.count + buffer.readableBytes > server.configuration.maximumRequestBytes { tooLarge = true; body = [] }
            if !tooLarge, let bytes = buffer.readBytes(length: buffer.readableBytes) { body += bytes }
        case .end:
            guard let head else { return }
            self.head = nil
            busy = true
            let keepAlive = head.isKeepAlive && !tooLarge
            if tooLarge {
                write(.text(.payloadTooLarge, "request too large\n"), version: head.version, keepAlive: false, context: context)
                return
            }
            let request = HTTPRequest(method: head.method, uri: head.uri, headers: head.headers, body: body,
                                      local: context.localAddress?.ipAddress ?? "127.0.0.1", remote: context.remoteAddress)
            body = []
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let server = self.server
            server.pool.runIfActive(eventLoop: context.eventLoop) { server.answer(request) }.whenComplete { result in
                let (handler, context) = bound.value
                let answer = (try? result.get()) ?? .text(.serviceUnavailable, "stopping\n")
                handler.write(answer, version: head.version, keepAlive: keepAlive, context: context)
            }
        }
    }

    private func write(_ answer: HTTPAnswer, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders([("Server", SSDPMessages.server), ("Connection", keepAlive ? "keep-alive" : "close")])
        var fileHandle: NIOFileHandle?
        switch answer {
        case .bytes(let status, let list, let bytes):
            headers.add(contentsOf: list)
            headers.replaceOrAdd(name: "Content-Length", value: String(bytes.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
            if !bytes.isEmpty { context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: bytes)))), promise: nil) }
        case .file(let status, let list, let handle, let range, let headOnly):
            fileHandle = handle
            headers.add(contentsOf: list)
            headers.replaceOrAdd(name: "Content-Length", value: String(range.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
            if !headOnly && !range.isEmpty {
                let region = FileRegion(fileHandle: handle, readerIndex: range.lowerBound, endIndex: range.upperBound)
                context.write(wrapOutboundOut(.body(.fileRegion(region))), promise: nil)
            }
        }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let handle = UncheckedHandle(handle: fileHandle)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            try? handle.handle?.close()
            let (handler, context) = bound.value
            handler.busy = false
            if !keepAlive { context.close(promise: nil) }
        }
    }

    /// The file handle crosses into the write's completion on the same event loop.
    private struct UncheckedHandle: @unchecked Sendable { var handle: NIOFileHandle? }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent {
            // Between requests a read timeout ends the connection; during an answer, a client not reading it.
            if (idle == .read && !busy) || (idle == .write && busy) { context.close(promise: nil) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
