import Foundation
import Synchronization

/// The web app's logged-in sessions, in the server's memory (a restart logs everyone out; nothing is
/// stored). A session is a random 256-bit token in an `HttpOnly` cookie, which the page's scripts cannot
/// read, and a second random token, the CSRF token, which the page gets in JSON and sends back in
/// `X-CSRF-Token` on every state change: another site can make the browser send the cookie, but cannot
/// read an answer of this origin to learn the CSRF token.
final class SessionBook: Sendable {
    struct Session: Sendable {
        var user: String
        var csrf: String
        /// The user's sealed password when the session began: a password changed since ends the session.
        var sealedPassword: String
        var lastUsed: Date
    }

    /// A session unused this long ends (a page left open keeps its session: it calls the API).
    static let idleLimit: TimeInterval = 30 * 24 * 3600

    private let sessions = Mutex<[String: Session]>([:])

    /// A new session of `user`: its cookie token and the session.
    func open(user: String, sealedPassword: String, now: Date = Date()) -> (token: String, session: Session) {
        let token = Self.randomToken()
        let session = Session(user: user, csrf: Self.randomToken(), sealedPassword: sealedPassword, lastUsed: now)
        sessions.withLock { sessions in
            // Ended sessions go when new ones come: the book never grows with abandoned ones.
            sessions = sessions.filter { now.timeIntervalSince($0.value.lastUsed) < Self.idleLimit }
            sessions[token] = session
        }
        return (token, session)
    }

    /// The session of `token`, marked used; nil when there is none (or it ended).
    func session(_ token: String, now: Date = Date()) -> Session? {
        sessions.withLock { sessions in
            guard var session = sessions[token] else { return nil }
            guard now.timeIntervalSince(session.lastUsed) < Self.idleLimit else {
                sessions[token] = nil
                return nil
            }
            session.lastUsed = now
            sessions[token] = session
            return session
        }
    }

    func close(_ token: String) { _ = sessions.withLock { $0.removeValue(forKey: token) } }

    var count: Int { sessions.withLock { $0.count } }

    /// 256 bits from the system's secure generator (getrandom), as 64 hex digits.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether two tokens are equal, in a time that depends on their lengths only.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) { difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0) }
        return difference == 0
    }
}
