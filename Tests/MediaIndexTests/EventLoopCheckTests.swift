import Foundation
import MediaIndex
import MediaModel
import NIOCore
import NIOPosix
import SQLiteStore
import Testing

/// Issue 39: "never on an event loop" was stated in the store protocols' documentation and checked
/// nowhere; a front that forgot to hop off the loop stalled every connection of the loop under load, and
/// on PostgreSQL could wait for itself. Debug builds now stop at such a call (`EventLoopCheck`).
@Suite("Stores never on an event loop")
struct EventLoopCheckTests {
    static let isDebugBuild: Bool = {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }()

    /// swift-nio's loops (a group of the MPD server's kind, and the singleton group Hummingbird uses) are
    /// recognised; the test's own thread and NIO's thread pool, where store calls belong, are not.
    @Test func eventLoopThreadsAreRecognisedAndOthersAreNot() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        #expect(try group.next().submit { EventLoopCheck.isOnEventLoop }.wait())
        #expect(try MultiThreadedEventLoopGroup.singleton.next().submit { EventLoopCheck.isOnEventLoop }.wait())
        #expect(!EventLoopCheck.isOnEventLoop)
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        defer { try? pool.syncShutdownGracefully() }
        #expect(try pool.runIfActive(eventLoop: group.next()) { EventLoopCheck.isOnEventLoop }.wait() == false)
    }

    /// A store call made on an event loop stops the (debug) process, at the call, saying why.
    @Test(.enabled(if: isDebugBuild, "the check runs in debug builds only"))
    func aStoreCallOnAnEventLoopStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let store = try SQLiteIndex(inMemory: ())
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            _ = try group.next().submit { try store.count(MediaQuery()) }.wait()
        }
    }

    /// The same call hopped off the loop (NIO's thread pool, as the servers' `offLoop`) runs.
    @Test func theSameCallOffTheLoopRuns() throws {
        let store = try SQLiteIndex(inMemory: ())
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        defer { try? pool.syncShutdownGracefully() }
        #expect(try pool.runIfActive(eventLoop: group.next()) { try store.count(MediaQuery()) }.wait() == 0)
    }
}
