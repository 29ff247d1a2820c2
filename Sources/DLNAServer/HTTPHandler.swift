import Library
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP connection: reads a request (its body bounded), has the server answer it off the event loop (a
/// small Browse from memory on it: `DLNAServer.answerOnLoop`), writes the answer (a file by sendfile, in
/// pieces), and closes a connection idle past the read timeout between requests, or one whose client takes
/// nothing of an answer for the write timeout (`watchWrites`).
final class HTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: DLNAServer
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    private var busy = false
    /// When the client last took a piece of the answer being written (`progressed`), and the task that
    /// closes the connection once it has taken nothing for the write timeout.
    private var lastProgress = NIODeadline.now()
    private var writeWatch: Scheduled<Void>?
    /// The bytes the client had acknowledged at the watch's last look (`ClientProgress`).
    private var acknowledged: UInt64?
    /// A file goes out in pieces of this many bytes, each once the client has taken the one before: the write
    /// timeout then counts from the client's last progress. One region for the whole file completed only at
    /// its end, so a TV reading a long stream at its pace was cut off after the timeout (issue 43). Small
    /// enough that a client reading at a 16 kb/s audiobook's pace takes a piece every 16 s (within the 30 s
    /// default); on a veth pair a 115 MB file still goes at 2–3.8 GB/s, as in one region.
    static let fileChunk = 32 << 10
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
        // `Connection` only where it says something: an HTTP/1.1 connection stays open unless it is closed (RFC
        // 9112, 9.3), and each header is validated and encoded again for every answer, a Browse's most of all.
        var headers = HTTPHeaders([("Server", SSDPMessages.server)])
        if !keepAlive || (version.major, version.minor) < (1, 1) { headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close") }
        switch answer {
        case .bytes(let status, let list, let bytes):
            headers.add(contentsOf: list)
            headers.add(name: "Content-Length", value: String(bytes.readableBytes))   // no answer's own list has one
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
            if bytes.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil) }
            end(keepAlive: keepAlive, context: context)
        case .transcode(let list, let session, let threads):
            headers.add(contentsOf: list)
            // No length: HTTP/1.1 sends it chunked; HTTP/1.0 ends it by closing.
            let chunked = version.major == 1 && version.minor >= 1
            if chunked { headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked") } else { headers.replaceOrAdd(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .ok, headers: headers))), promise: nil)
            pump(session, threads: threads, keepAlive: keepAlive && chunked, context: context)
        case .later:
            preconditionFailure("a later answer is made before it is written (deliver)")
        case .file(let status, let list, let handle, let range, let headOnly):
            headers.add(contentsOf: list)
            headers.replaceOrAdd(name: "Content-Length", value: String(range.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
            if headOnly || range.isEmpty {
                end(keepAlive: keepAlive, closing: handle, context: context)
            } else {
                send(UncheckedHandle(handle: handle), from: range.lowerBound, to: range.upperBound, keepAlive: keepAlive, context: context)
            }
        }
    }

    /// The file's bytes `offset..<end`, a piece (`fileChunk`) at a time, then the answer's end.
    private func send(_ file: UncheckedHandle, from offset: Int, to end: Int, keepAlive: Bool, context: ChannelHandlerContext) {
        guard let handle = file.handle else { return }
        let upper = min(end, offset + Self.fileChunk)
        progressed(context)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let piece = FileRegion(fileHandle: handle, readerIndex: offset, endIndex: upper)
        context.writeAndFlush(wrapOutboundOut(.body(.fileRegion(piece)))).whenComplete { result in
            let (handler, context) = bound.value
            guard case .success = result, context.channel.isActive else {
                try? file.handle?.close()
                handler.stopWatchingWrites()
                context.close(promise: nil)
                return
            }
            // The next piece from the event loop, not from inside this completion: a client taking every
            // piece at once would otherwise nest a call for each piece of the file.
            context.eventLoop.execute {
                let (handler, context) = bound.value
                if upper < end {
                    handler.send(file, from: upper, to: end, keepAlive: keepAlive, context: context)
                } else {
                    handler.end(keepAlive: keepAlive, closing: file.handle, context: context)
                }
            }
        }
    }

    /// Writes the answer's end; once it is out, closes the file (if any) and frees the connection for the next
    /// request, or closes it. An end the client does not take at once is watched (`progressed`).
    private func end(keepAlive: Bool, closing handle: NIOFileHandle? = nil, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let handle = UncheckedHandle(handle: handle)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            try? handle.handle?.close()
            let (handler, context) = bound.value
            handler.busy = false
            handler.stopWatchingWrites()
            if !keepAlive { context.close(promise: nil) }
        }
        // Written at once (a Browse's answer, nearly always): no timer was needed.
        if busy { progressed(context) }
    }

    /// Notes that the client has taken what was written so far (or that a new piece starts to wait on it),
    /// and watches the answer until it ends: the connection is closed once the client has taken nothing for
    /// the write timeout. One timer an answer, moved along rather than made again at each piece.
    private func progressed(_ context: ChannelHandlerContext) {
        lastProgress = .now()
        guard writeWatch == nil else { return }
        watchWrites(in: server.configuration.writeTimeout, context: context)
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        ClientProgress.acknowledged(on: context.channel) { bound.value.acknowledged = $0 }
    }

    private func watchWrites(in delay: TimeAmount, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        writeWatch = context.eventLoop.scheduleTask(in: delay) {
            let (handler, context) = bound.value
            handler.writeWatch = nil
            guard handler.busy else { return }
            // A piece completes only when the kernel takes more of the file, which it signals once a third
            // of the socket's send buffer is free: a client reading slowly from a large buffer makes progress
            // the kernel has seen and the handler has not. Its acknowledged bytes say so.
            ClientProgress.acknowledged(on: context.channel) { acknowledged in
                let (handler, context) = bound.value
                if let acknowledged, let before = handler.acknowledged, acknowledged > before { handler.lastProgress = .now() }
                handler.acknowledged = acknowledged
                let waited = NIODeadline.now() - handler.lastProgress, timeout = handler.server.configuration.writeTimeout
                if waited >= timeout { context.close(promise: nil) } else { handler.watchWrites(in: timeout - waited, context: context) }
            }
        }
    }

    private func stopWatchingWrites() {
        writeWatch?.cancel()
        writeWatch = nil
    }

    /// Sends a transcode chunk by chunk: each made on a transcoding thread, written, and the next made only
    /// once it is flushed (so a slow reader slows the encoder, and a stalled one trips the write timeout,
    /// counted while a chunk waits on the client, not while the next is made).
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
                handler.progressed(context)
                context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(buffer)))).whenComplete { written in
                    let (handler, context) = bound.value
                    if case .failure = written { session.close(); handler.stopWatchingWrites(); context.close(promise: nil); return }
                    handler.progressed(context)
                    handler.pump(session, threads: threads, keepAlive: keepAlive, context: context)
                }
            case .success(nil):
                session.close()
                handler.end(keepAlive: keepAlive, context: context)
            case .failure:
                // A file that stops decoding midway: the stream cannot say so any more; it ends without its
                // last chunk, which a client sees as a broken transfer.
                session.close()
                handler.stopWatchingWrites()
                context.close(promise: nil)
            }
        }
    }

    /// The file handle crosses into the write's completion on the same event loop.
    private struct UncheckedHandle: @unchecked Sendable { var handle: NIOFileHandle? }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent {
            // Between requests a read timeout ends the connection (during an answer, the write watch does).
            if idle == .read && !busy { context.close(promise: nil) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
