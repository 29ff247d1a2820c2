import Foundation
import HTTPTypes
import Hummingbird
import Library
import MediaIndex
import SubsonicServer

// Log in, log out, the session of a request, and the checks of a state change (CSRF token, Origin).
extension WebApp {
    struct LoginRequest: Decodable {
        var user: String
        var password: String
    }

    struct SessionAnswer: Encodable {
        var user: String
        var admin: Bool
        var csrf: String
    }

    /// `POST /api/login`: the password checked against the library's users (as the Subsonic API and MPD's
    /// `password user:secret` check it), through the throttle.
    func login(_ request: Request, _ context: APIRequestContext) async throws -> Response {
        let given = try await Self.body(request, as: LoginRequest.self)
        let address = context.clientAddress
        let wait = throttle.wait(name: given.user, address: address)
        if wait > 0 {
            var headers = HTTPFields()
            headers[.retryAfter] = String(wait)
            throw WebError(.tooManyRequests, "too many failed logins: try again in \(wait) s", headers: headers)
        }
        let users = server.users
        // An unknown name takes as long as a wrong password (`Users.credentials` opens a decoy).
        guard let account = try await server.offLoop({ try users.account(named: given.user, password: given.password) }) else {
            throttle.failed(name: given.user, address: address)
            throw WebError(.unauthorized, "wrong user name or password")
        }
        throttle.succeeded(name: given.user, address: address)
        let (token, session) = sessions.open(user: account.name, sealedPassword: account.password)
        var headers = HTTPFields()
        headers[.setCookie] = "\(Self.cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/" + (Self.overTLS(request) ? "; Secure" : "")
        return try Self.json(SessionAnswer(user: account.name, admin: account.isAdmin, csrf: session.csrf), headers: headers)
    }

    /// `POST /api/logout`: the session forgotten, the cookie cleared.
    func logout(_ token: String, _ request: Request) -> Response {
        sessions.close(token)
        var headers = HTTPFields()
        headers[.setCookie] = "\(Self.cookieName)=; Max-Age=0; HttpOnly; SameSite=Strict; Path=/" + (Self.overTLS(request) ? "; Secure" : "")
        headers[.cacheControl] = "no-store"
        return Response(status: .noContent, headers: headers)
    }

    /// Whether the browser reached the server over TLS (through a proxy in front: `mlib serve` speaks plain HTTP).
    static func overTLS(_ request: Request) -> Bool { request.headers[.xForwardedProto]?.lowercased() == "https" }

    /// The session whose token the request's cookie carries.
    func session(of request: Request) -> (token: String, session: SessionBook.Session)? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == Self.cookieName else { continue }
                let token = parts[1].trimmingCharacters(in: .whitespaces)
                if let session = sessions.session(token) { return (token, session) }
            }
        }
        return nil
    }

    /// Why a state-changing request of `session` is refused: no or a wrong `X-CSRF-Token`, or an `Origin`
    /// other than the server's own (the `Host` the browser sent). nil: allowed.
    static func refusal(_ request: Request, _ session: SessionBook.Session) -> String? {
        guard let token = request.headers[.xCSRFToken], SessionBook.constantTimeEqual(token, session.csrf) else {
            return "a state change needs the session's X-CSRF-Token header"
        }
        if let origin = request.headers[.origin] {
            // "http://host:port" (the port absent when it is the scheme's default, as in Host).
            guard let scheme = origin.range(of: "://"), let authority = request.head.authority,
                  origin[scheme.upperBound...].lowercased() == authority.lowercased() else {
                return "a state change from another origin (\(origin))"
            }
        }
        return nil
    }

    /// The session's user as the library has them now: nil (and the session ended) when the user was
    /// deleted or their password changed since the login.
    func account(of session: SessionBook.Session, token: String) async throws -> UserAccount? {
        let store = server.users.store, name = session.user
        let account = try await server.offLoop { try store.user(named: name) }
        guard let account, account.password == session.sealedPassword else {
            sessions.close(token)
            return nil
        }
        return account
    }

    public func sessionUser(of request: Request, changesState: Bool) async -> WebSessionCheck {
        guard let found = session(of: request) else { return .none }
        if changesState, let refusal = Self.refusal(request, found.session) { return .refused(refusal) }
        guard let account = try? await account(of: found.session, token: found.token) else { return .none }
        return .user(account)
    }
}
