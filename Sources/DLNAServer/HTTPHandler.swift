import Library
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP connection: reads a request (its body bounded), has the server answer it off the event loop (a
/// small Browse from memory on it: `DLNAServer.answerOnLoop`), writes the answer (a file by sendfile), and
/// closes a connection idle past the read timeout between requests, or one whose client stops reading an
/// answer for the write timeout.
final class HTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: DLNAServer
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    private var busy = false
    /// The connection's two ends, asked of the socket once (a context's addresses are a system call each,
    /// and the local one a formatted string too).
    private var addresses: (local: String, remote: SocketAddress?)?

    init(server: DLNAServer) { self.server = server }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body = []
            tooLarge = false
        case .body(let buffer):
            if body.count + buffer.readableBytes > server.configuration.maximumRequestBytes { tooLarge = true; body = [] }
            if !tooLarge { body.append(contentsOf: buffer.readableBytesView) }
        case .end:
            guard let head else { return }
            self.head = nil
            busy = true
            let keepAlive = head.isKeepAlive && !tooLarge
            if tooLarge {
                write(.text(.payloadTooLarge, "request too large\n"), version: head.version, keepAlive: false, context: context)
                return
            }
            let ends = addresses ?? (context.channel.localAddress?.ipAddress ?? "127.0.0.1", context.channel.remoteAddress)
            addresses = ends
            var request = HTTPRequest(method: head.method, uri: head.uri, headers: head.headers, body: body,
                                      local: ends.local, remote: ends.remote)
            body = []
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let server = self.server
            let answer = { (request: HTTPRequest) in
                var request = request
                if let ready = server.answerOnLoop(&request) {
                    let (handler, context) = bound.value
                    return handler.deliver(ready, version: head.version, keepAlive: keepAlive, context: context)
                }
                let read = request      // with its SOAP call, read once on the loop
                server.pool.runIfActive(eventLoop: context.eventLoop) { server.answer(read) }.whenComplete { result in
                    let (handler, context) = bound.value
                    handler.deliver((try? result.get()) ?? .text(.serviceUnavailable, "stopping\n"), version: head.version,
                                    keepAlive: keepAlive, context: context)
                }
            }
            guard head.method == .GET && request.path.hasPrefix("/transcode/") else { return answer(request) }
            acquire(server.transcoding, until: .now() + .seconds(2), context: context) { slot in
                request.transcodeSlot = slot
                answer(request)
            }
        }
    }

    /// A transcoding slot, waited for on the event loop (never the answering thread, which browsing needs)
    /// up to `deadline`: a renderer skipping tracks asks for the next before the server has seen the last
    /// one's connection close, as the Subsonic API's `acquire(waitingUpTo:)` allows for.
    private func acquire(_ slots: TranscodeSlots, until deadline: NIODeadline, context: ChannelHandlerContext,
                         then: @escaping (TranscodeSlots.Slot?) -> Void) {
        if let slot = slots.acquire() { return then(slot) }
        guard NIODeadline.now() < deadline, context.channel.isActive else { return then(nil) }
        let bound = NIOLoopBound((self, context, then), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: .milliseconds(20)) {
            let (handler, context, then) = bound.value
            handler.acquire(slots, until: deadline, context: context, then: then)
        }
    }

    /// Writes `answer`, or has a `.later` one made on its own pool first (the answering thread is free
    /// meanwhile) and then writes what it made.
    private func deliver(_ answer: HTTPAnswer, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        guard case .later(let pool, let make) = answer else { return write(answer, version: version, keepAlive: keepAlive, context: context) }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        pool.runIfActive(eventLoop: context.eventLoop) { make() }.whenComplete { result in
            let (handler, context) = bound.value
            handler.deliver((try? result.get()) ?? .text(.serviceUnavailable, "stopping\n"), version: version, keepAlive: keepAlive, context: context)
        }
    }

    private func write(_ answer: HTTPAnswer, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders([("Server", SSDPMessages.server), ("Connection", keepAlive ? "keep-alive" : "close")])
        var fileHandle: NIOFileHandle?
        switch answer {
        case .bytes(let status, let list, let bytes):
            headers.add(contentsOf: list)
            headers.replaceOrAdd(name: "Content-Length", value: String(bytes.readableBytes))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
            if bytes.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil) }
        case .transcode(let list, let session, let threads):
            headers.add(contentsOf: list)
            // No length: HTTP/1.1 sends it chunked; HTTP/1.0 ends it by closing.
            let chunked = version.major == 1 && version.minor >= 1
            if chunked { headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked") } else { headers.replaceOrAdd(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .ok, headers: headers))), promise: nil)
            pump(session, threads: threads, keepAlive: keepAlive && chunked, context: context)
            return
        case .later:
            preconditionFailure("a later answer is made before it is written (deliver)")
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

    /// Sends a transcode chunk by chunk: each made on a transcoding thread, written, and the next made only
    /// once it is flushed (so a slow reader slows the encoder, and a stalled one trips the write timeout).
    /// The slot is given back before the end goes out, so the renderer's next request finds it free.
    private func pump(_ session: TranscodeSession, threads: NIOThreadPool, keepAlive: Bool, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        threads.runIfActive(eventLoop: context.eventLoop) { try session.read() }.whenComplete { result in
            let (handler, context) = bound.value
            switch result {
            case .success(let bytes?):
                guard context.channel.isActive else { return session.close() }
                guard !bytes.isEmpty else { return handler.pump(session, threads: threads, keepAlive: keepAlive, context: context) }
                let buffer = context.channel.allocator.buffer(bytes: bytes)
                context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(buffer)))).whenComplete { written in
                    let (handler, context) = bound.value
                    if case .failure = written { session.close(); context.close(promise: nil); return }
                    handler.pump(session, threads: threads, keepAlive: keepAlive, context: context)
                }
            case .success(nil):
                session.close()
                context.writeAndFlush(handler.wrapOutboundOut(.end(nil))).whenComplete { _ in
                    let (handler, context) = bound.value
                    handler.busy = false
                    if !keepAlive { context.close(promise: nil) }
                }
            case .failure:
                // A file that stops decoding midway: the stream cannot say so any more; it ends without its
                // last chunk, which a client sees as a broken transfer.
                session.close()
                context.close(promise: nil)
            }
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
