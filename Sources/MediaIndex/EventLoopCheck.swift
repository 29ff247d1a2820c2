#if canImport(Glibc)
import Glibc
#endif

/// "Never on an event loop", checked at run time in debug builds, not only stated.
///
/// Every store call blocks its thread until the database answers: SQLite for a disk read, PostgreSQL for a
/// round trip (and postgres-nio answers on an event loop of its own: a store called on one can wait for
/// itself forever). A thread of a swift-nio event loop — the MPD server's, Hummingbird's for the Subsonic
/// API — that blocks stops every connection it serves. The servers hop off the loop first (`offLoop`, a
/// thread pool); this makes a call that forgot to a crash in debug builds, at the call, instead of a
/// server that stalls under load.
///
/// How a loop's thread is known without MediaIndex depending on swift-nio: NIO names the threads of its
/// event loops `NIO-ELT-…` (`MultiThreadedEventLoopGroup`) and `NIO-SGLTN-…` (its singleton group, which
/// Hummingbird uses); its thread pool's threads, where store calls belong, are named otherwise. Release
/// builds do not look (one `prctl` per call).
public enum EventLoopCheck {
    /// The thread-name prefixes of swift-nio's event-loop threads.
    public static let eventLoopThreadPrefixes = ["NIO-ELT-", "NIO-SGLTN-"]

    /// Whether the calling thread is a swift-nio event loop's.
    public static var isOnEventLoop: Bool {
        var buffer = [CChar](repeating: 0, count: 32)
        guard threadName(pthread_self(), &buffer, buffer.count) == 0 else { return false }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return eventLoopThreadPrefixes.contains { name.hasPrefix($0) }
    }

    /// Stops a debug build when called on an event loop's thread; nothing in a release build.
    @inline(__always)
    package static func assertOffEventLoop(_ call: StaticString = #function) {
        #if DEBUG
        if isOnEventLoop {
            preconditionFailure("\(call): a library store was called on a swift-nio event-loop thread; stores block "
                                + "(see the store protocols' \"Threading\"): hop off the loop first (offLoop, NIOThreadPool)")
        }
        #endif
    }
}

/// glibc's `pthread_getname_np` (a GNU extension Swift's Glibc module does not import).
@_silgen_name("pthread_getname_np")
private func threadName(_ thread: pthread_t, _ name: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32
