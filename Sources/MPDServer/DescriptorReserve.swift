#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// One file descriptor held in reserve for when accept fails with EMFILE/ENFILE (no descriptor left).
///
/// NIO's server channel keeps its read pending after a failed accept, so the level-triggered epoll wakes
/// it again at once and the loop spins on accept (70% of a core); NIO's `AcceptBackoffHandler` cannot
/// help, as no new read is ever asked for. The classic remedy (libev, nginx): give the reserve descriptor
/// up, so the next accept succeeds, refuse that connection with a line and close it, then take the reserve
/// back. Each waiting connection is answered once and the backlog drains, so the loop goes idle.
final class DescriptorReserve: @unchecked Sendable {
    // Used on the server's one loop thread only.
    private var spare: Int32 = -1
    /// True from a failed accept until the reserve is held again.
    private(set) var isExhausted = false

    init() { spare = Self.openSpare() }

    deinit { if spare >= 0 { close(spare) } }

    private static func openSpare() -> Int32 { open("/dev/null", O_RDONLY | O_CLOEXEC) }

    /// Accept failed for want of descriptors: free the reserve for the next one.
    func release() {
        isExhausted = true
        if spare >= 0 {
            close(spare)
            spare = -1
        }
    }

    /// A refused connection closed: take the reserve back (it stays exhausted if none is free yet).
    func restore() {
        if spare < 0 { spare = Self.openSpare() }
        isExhausted = spare < 0
    }

    /// On the listening channel: an accept that failed for want of descriptors frees the reserve.
    final class AcceptFailureHandler: ChannelInboundHandler {
        typealias InboundIn = Any
        private let reserve: DescriptorReserve
        init(_ reserve: DescriptorReserve) { self.reserve = reserve }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE {
                reserve.release()
                return
            }
            context.fireErrorCaught(error)
        }
    }
}
