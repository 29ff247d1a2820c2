import NIOPosix
import Synchronization

/// The bound on transcoding: at most `limit` streams at once, each encoding on one of `limit` threads of
/// its own (never the event loops, never the store thread), so transcodes use at most `limit` cores.
final class TranscodeSlots: Sendable {
    let limit: Int
    let threads: NIOThreadPool
    private let busy = Mutex(0)

    init(limit: Int) {
        self.limit = max(1, limit)
        threads = NIOThreadPool(numberOfThreads: self.limit)
        threads.start()
    }

    /// A slot, or nil when all are taken. The slot is given back when it is freed.
    func acquire() -> Slot? {
        let taken = busy.withLock { count -> Bool in
            guard count < limit else { return false }
            count += 1
            return true
        }
        return taken ? Slot(owner: self) : nil
    }

    var inUse: Int { busy.withLock { $0 } }

    fileprivate func release() { busy.withLock { $0 -= 1 } }

    /// A taken slot: given back by `release()` (once, however often called) or, failing that, when freed.
    final class Slot: Sendable {
        private let owner: TranscodeSlots
        private let released = Atomic(false)
        fileprivate init(owner: TranscodeSlots) { self.owner = owner }
        func release() { if !released.exchange(true, ordering: .acquiringAndReleasing) { owner.release() } }
        deinit { release() }
    }
}
