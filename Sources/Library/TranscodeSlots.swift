import NIOPosix
import Synchronization

/// The bound on transcoding (the Subsonic API's streams and DLNA's transcoded `res`, each front with its
/// own): at most `limit` streams at once, each encoding on one of `limit` threads of its own (never the
/// event loops, never the store thread), so transcodes use at most `limit` cores; at most `perUser` of them
/// for one user, so that one user's streams (stalled ones too, until the write timeout drops them) never
/// take every slot.
public final class TranscodeSlots: Sendable {
    public let limit: Int
    public let perUser: Int
    public let threads: NIOThreadPool
    private let busy = Mutex((total: 0, byUser: [String: Int]()))

    public init(limit: Int, perUser: Int? = nil) {
        self.limit = max(1, limit)
        self.perUser = min(self.limit, max(1, perUser ?? self.limit))
        threads = NIOThreadPool(numberOfThreads: self.limit)
        threads.start()
    }

    /// A slot for `user`, or nil when all are taken or the user holds `perUser`. Given back when freed.
    public func acquire(user: String = "") -> Slot? {
        let taken = busy.withLock { busy -> Bool in
            guard busy.total < limit, busy.byUser[user, default: 0] < perUser else { return false }
            busy.total += 1
            busy.byUser[user, default: 0] += 1
            return true
        }
        return taken ? Slot(owner: self, user: user) : nil
    }

    /// `acquire(user:)`, waiting up to `patience` for a slot given back. A player skipping songs closes the
    /// stream and asks for the next at once, before the server has seen the close (its encoder is between
    /// two chunks): without the wait, a user with one slot got 503 for the next song.
    public func acquire(user: String = "", waitingUpTo patience: Duration) async -> Slot? {
        let deadline = ContinuousClock.now + patience
        while true {
            if let slot = acquire(user: user) { return slot }
            guard ContinuousClock.now < deadline, (try? await Task.sleep(for: .milliseconds(20))) != nil else { return nil }
        }
    }

    public var inUse: Int { busy.withLock { $0.total } }

    fileprivate func release(_ user: String) {
        busy.withLock { busy in
            busy.total -= 1
            busy.byUser[user, default: 1] -= 1
            if busy.byUser[user] == 0 { busy.byUser[user] = nil }
        }
    }

    /// A taken slot: given back by `release()` (once, however often called) or, failing that, when freed.
    public final class Slot: Sendable {
        private let owner: TranscodeSlots
        private let user: String
        private let released = Atomic(false)
        fileprivate init(owner: TranscodeSlots, user: String) { self.owner = owner; self.user = user }
        public func release() { if !released.exchange(true, ordering: .acquiringAndReleasing) { owner.release(user) } }
        deinit { release() }
    }
}
