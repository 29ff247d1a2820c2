import Hummingbird
import MediaIndex
import NIOCore

/// What `mlib serve --http` serves beside `/rest/` and `/share/`: the web app (the WebApp module), attached
/// with `SubsonicServer.attach(web:)`. Without one (`--no-web`) those paths are 404 and `/rest/` reads no
/// cookie: the API server knows nothing of pages or sessions, only of this hand-off.
public protocol WebFront: Sendable {
    /// The answer to a request outside `/rest/` and `/share/`; nil: 404.
    func respond(to request: Request, context: APIRequestContext) async -> Response?

    /// For a `/rest/` call with no credentials in its parameters: the user whose session cookie `request`
    /// carries. `changesState`: the call is not a read, so the session's CSRF header and a matching
    /// `Origin` are needed too.
    func sessionUser(of request: Request, changesState: Bool) async -> WebSessionCheck
}

/// Whether a `/rest/` call is authenticated by a web session.
public enum WebSessionCheck: Sendable {
    /// No session cookie, or one naming no session: the call is judged by its parameters, as without a web app.
    case none
    case user(UserAccount)
    /// A session, but the state-changing call lacks its CSRF header or comes from another origin (403).
    case refused(String)
}

/// A web session's state-changing `/rest/` call without its CSRF proof: 403.
struct WebRefusal: Error {
    var reason: String
}

extension Call {
    /// Whether `method` (with its parameters) only reads, so that a page may call it by the session cookie
    /// alone, from `<audio src>` and `<img src>` (WEBAPP-CONTRACT.md). A list of reads, not of writes: a
    /// method added later needs the CSRF header until it is named here.
    static func onlyReads(_ method: String, _ parameters: Parameters) -> Bool {
        if method.hasPrefix("get") || method.hasPrefix("search") { return true }
        switch method {
        case "ping", "stream", "download", "tokenInfo": return true
        case "jukeboxControl": return ["get", "status"].contains(parameters["action"] ?? "")
        default: return false
        }
    }
}

/// Hummingbird's basic request context and the client's address (the web app's login throttle counts
/// failures per address as well as per name).
public struct APIRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address ("?" when the channel has none, as a Unix socket).
    public let clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "?"
    }
}
