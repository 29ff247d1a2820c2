import HummingbirdCore
import Library
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The connections of the API server, so that no client can keep the others out (issue 37): at most
/// `perAddress` from one address and `total` in all. When a new connection would pass either cap, the
/// oldest *idle* one (no request in progress: a kept-alive connection between requests, or one that has
/// not finished sending its first header) is closed for it; only when every one is busy is the new one
/// refused. Slow or idle clients cannot fill the server, busy ones (a download, a stream) keep their place.
final class ConnectionRegistry: Sendable {
    let perAddress: Int
    let total: Int
    private let state = Mutex(State())

    struct State {
        var next = 0
        var clock: UInt64 = 0
        var entries: [Int: Entry] = [:]
    }

    struct Entry {
        var channel: any Channel
        var address: String
        var busy: Bool
        /// When it last became idle (a counter: the smallest is the oldest).
        var idleSince: UInt64
    }

    init(perAddress: Int, total: Int) {
        self.perAddress = max(1, perAddress)
        self.total = max(1, total)
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// Registers a new connection; nil when it must be refused (every connection in its way is busy).
    func open(_ channel: any Channel) -> Int? {
        let address = channel.remoteAddress?.ipAddress ?? "?"
        var evicted: [any Channel] = []
        let id = state.withLock { state -> Int? in
            func evictOldestIdle(where include: (Entry) -> Bool) -> Bool {
                guard let oldest = state.entries.filter({ !$0.value.busy && include($0.value) })
                    .min(by: { $0.value.idleSince < $1.value.idleSince }) else { return false }
                evicted.append(oldest.value.channel)
                state.entries[oldest.key] = nil
                return true
            }
            if state.entries.values.count(where: { $0.address == address }) >= perAddress,
               !evictOldestIdle(where: { $0.address == address }) { return nil }
            if state.entries.count >= total, !evictOldestIdle(where: { _ in true }) { return nil }
            state.next += 1
            state.clock += 1
            state.entries[state.next] = Entry(channel: channel, address: address, busy: false, idleSince: state.clock)
            return state.next
        }
        for channel in evicted { channel.close(promise: nil) }
        return id
    }

    func setBusy(_ id: Int, _ busy: Bool) {
        state.withLock { state in
            guard state.entries[id] != nil else { return }
            state.clock += 1
            state.entries[id]!.busy = busy
            if !busy { state.entries[id]!.idleSince = state.clock }
        }
    }

    func close(_ id: Int) { _ = state.withLock { $0.entries.removeValue(forKey: id) } }
}

/// One connection's guard, in the HTTP pipeline after the decoder: registers it (`ConnectionRegistry`)
/// and closes it when a client is too slow — its request's head not complete within `headerTimeout` of
/// the connection opening (slowloris: a header byte every few seconds), its body not within
/// `headerTimeout` of its head, a kept-alive connection idle past `idleTimeout`, or an answer of which the
/// client has taken nothing for `writeTimeout` (a stalled stream, which would keep a transcoding slot; one
/// played at its pace keeps going: `closeUnlessAcknowledged`).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let registry: ConnectionRegistry
    let headerTimeout: TimeAmount
    let idleTimeout: TimeAmount
    let writeTimeout: TimeAmount
    private var id: Int?
    /// Requests read whose answers are not all written (more than one when a client pipelines).
    private var inFlight = 0
    private var readDeadline: Scheduled<Void>?
    private var writeDeadline: Scheduled<Void>?
    /// What the client had acknowledged when the write deadline was set (`closeUnlessAcknowledged`).
    private var acknowledgedAtWatch: UInt64?

    init(registry: ConnectionRegistry, headerTimeout: TimeAmount, idleTimeout: TimeAmount, writeTimeout: TimeAmount) {
        self.registry = registry
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { register(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        register(context)
        context.fireChannelActive()
    }

    private func register(_ context: ChannelHandlerContext) {
        guard id == nil else { return }
        guard let id = registry.open(context.channel) else { context.close(promise: nil); return }
        self.id = id
        closeUnlessRead(within: headerTimeout, context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            inFlight += 1
            if let id { registry.setBusy(id, true) }
            closeUnlessRead(within: headerTimeout, context)   // the body, if any, within as long again
        case .end:
            readDeadline?.cancel()
            readDeadline = nil
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            // The last answer is written: the connection is idle until the next request's head. (A request
            // pipelined behind this one keeps it busy, and its own read deadline.)
            inFlight = max(0, inFlight - 1)
            if inFlight == 0 {
                if let id { registry.setBusy(id, false) }
                closeUnlessRead(within: idleTimeout, context)
            }
        }
        context.write(data, promise: promise)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            writeDeadline?.cancel()
            writeDeadline = nil
        } else if writeDeadline == nil {
            closeUnlessAcknowledged(context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// Closes the connection if its client acknowledges nothing within the write timeout. The channel turns
    /// writable again only once the kernel takes more, which it allows once a third of the socket's send
    /// buffer is free: a client playing a stream at its pace from a buffer of megabytes (Linux grows it to
    /// 4 MiB) takes tens of seconds for that, reading all along. What the kernel says the client
    /// acknowledged (`ClientProgress`) tells it from a client that reads nothing.
    private func closeUnlessAcknowledged(_ context: ChannelHandlerContext, since before: UInt64? = nil) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        acknowledgedAtWatch = before
        writeDeadline = context.eventLoop.scheduleTask(in: writeTimeout) {
            let (handler, context) = bound.value
            guard handler.writeDeadline != nil else { return }
            ClientProgress.acknowledged(on: context.channel) { now in
                let (handler, context) = bound.value
                guard handler.writeDeadline != nil else { return }   // writable again meanwhile
                if let now, let before = handler.acknowledgedAtWatch, now > before {
                    handler.closeUnlessAcknowledged(context, since: now)
                } else {
                    handler.writeDeadline = nil
                    context.close(promise: nil)
                }
            }
        }
        // After the deadline is set: the kernel's answer can come at once, and is dropped when no watch waits.
        if before == nil {
            ClientProgress.acknowledged(on: context.channel) { now in
                let handler = bound.value.0
                if handler.writeDeadline != nil { handler.acknowledgedAtWatch = now }
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { finish() }

    private func closeUnlessRead(within timeout: TimeAmount, _ context: ChannelHandlerContext) {
        readDeadline?.cancel()
        readDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [weak self] in
            self?.readDeadline = nil
            context.close(promise: nil)
        }
    }

    private func finish() {
        readDeadline?.cancel()
        writeDeadline?.cancel()
        readDeadline = nil
        writeDeadline = nil
        if let id { registry.close(id) }
        id = nil
    }
}
