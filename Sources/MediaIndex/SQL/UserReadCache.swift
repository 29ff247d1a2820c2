import Foundation
import Synchronization

/// The users and their stars held in memory by a store that hears every write to its library
/// (`WriteNotifying`: PostgreSQL's LISTEN/NOTIFY). Issue 38: every Subsonic request asked the database for
/// its user, and most for the user's stars — a round trip each to a remote database, behind the view's
/// change check on the one connection (`ping` 0.83 s at 200 ms RTT). Used only while a listener hears the
/// writes (`setListening`); each write heard, and each of this store's own (`SQLStore.write`), empties it and
/// the next question reads again. Entries also expire after `lifetime`, for writers that do not notify (an
/// mlib before this one).
package final class UserReadCache: Sendable {
    private struct State {
        var listening = false
        /// Moves at every emptying: an answer read across a write is not kept.
        var epoch = 0
        var users: (accounts: [UserAccount], read: ContinuousClock.Instant)?
        var stars: [String: (stars: [UserStar], read: ContinuousClock.Instant)] = [:]
    }
    private let state = Mutex(State())

    /// How long an entry is used without a write heard.
    package static let lifetime = Duration.seconds(10)

    package init() {}

    /// Whether a listener hears the library's writes now (off: every question goes to the database).
    package func setListening(_ on: Bool) {
        state.withLock { $0.listening = on; $0.users = nil; $0.stars = [:]; $0.epoch += 1 }
    }

    /// The library was written: what is held may be stale.
    package func invalidate() {
        state.withLock { $0.users = nil; $0.stars = [:]; $0.epoch += 1 }
    }

    /// Every user, from memory or from `read`; nil when not listening (the caller reads the database).
    func users(_ read: () throws -> [UserAccount]) throws -> [UserAccount]? {
        try cached({ $0.users.map { ($0.accounts, $0.read) } }, read, store: { $0.users = ($1, $2) })
    }

    /// A user's stars, from memory or from `read`; nil when not listening.
    func stars(of user: String, _ read: () throws -> [UserStar]) throws -> [UserStar]? {
        try cached({ $0.stars[user].map { ($0.stars, $0.read) } }, read, store: { $0.stars[user] = ($1, $2) })
    }

    private func cached<T: Sendable>(_ held: (State) -> (T, ContinuousClock.Instant)?, _ read: () throws -> T,
                           store: (inout State, T, ContinuousClock.Instant) -> Void) throws -> T? {
        let now = ContinuousClock.now
        let (listening, known, epoch) = state.withLock { s -> (Bool, T?, Int) in
            (s.listening, held(s).flatMap { now - $0.1 < Self.lifetime ? $0.0 : nil }, s.epoch)
        }
        guard listening else { return nil }
        if let known { return known }
        let fresh = try read()
        state.withLock { if $0.listening && $0.epoch == epoch { store(&$0, fresh, now) } }
        return fresh
    }
}
