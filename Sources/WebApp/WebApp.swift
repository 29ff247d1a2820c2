import Foundation
import HTTPTypes
import Hummingbird
import Library
import MediaIndex
import MediaModel
import NIOCore
import SubsonicServer
import Synchronization

/// The web app of `mlib serve --http` (issue 45): the page at `/` and its files at `/app/` (compiled into the
/// binary: `EmbeddedAssets`), sessions (`/api/login`, a cookie, a CSRF token), and a small JSON API for what
/// the Subsonic API has no call for: the query language, smart-playlist preview, scan status, live events.
/// Everything else the page shows comes from the Subsonic API (`/rest/`), which accepts the session cookie
/// (`WebFront.sessionUser`). WEBAPP-CONTRACT.md and mlib(1) "THE WEB APP" document the endpoints.
public final class WebApp: WebFront {
    let server: SubsonicServer
    let sessions = SessionBook()
    let throttle = LoginThrottle()
    let events: EventHub

    static let cookieName = "mlib_session"

    /// The web app over `server`'s library and player; `server.attach(web:)` serves it.
    public init(server: SubsonicServer) {
        self.server = server
        events = EventHub(server: server)
    }

    /// Ends the event streams and the watching behind them.
    public func stop() { events.stop() }

    public func respond(to request: Request, context: APIRequestContext) async -> Response? {
        let path = request.uri.path
        if path == "/" || path == "/index.html" { return asset("index.html", request) }
        if path.hasPrefix("/app/") { return asset(String(path.dropFirst(5)), request) }
        if path.hasPrefix("/api/") { return await api(String(path.dropFirst(5)), request, context) }
        return nil
    }

    // MARK: The page's files

    private func asset(_ name: String, _ request: Request) -> Response {
        guard request.method == .get || request.method == .head else { return WebError(.methodNotAllowed, "GET only").response }
        guard let file = EmbeddedAssets.file(name) else { return WebError(.notFound, "no such file").response }
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.eTag] = file.etag
        // Revalidated at each load (one small round trip per file): a new binary's files are never stale.
        headers[.cacheControl] = "no-cache"
        headers[.vary] = "Accept-Encoding"
        headers[.xContentTypeOptions] = "nosniff"
        if request.headers[values: .ifNoneMatch].flatMap({ $0.split(separator: ",") }).contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == file.etag || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        var body = file.plain
        if let gzipped = file.gzipped, Self.acceptsGzip(request) {
            body = gzipped
            headers[.contentEncoding] = "gzip"
        }
        headers[.contentLength] = String(body.readableBytes)
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    static func acceptsGzip(_ request: Request) -> Bool {
        request.headers[values: .acceptEncoding].flatMap { $0.split(separator: ",") }.contains { coding in
            let parts = coding.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return parts.first == "gzip" && !parts.dropFirst().contains { $0 == "q=0" || $0 == "q=0.0" || $0 == "q=0.00" || $0 == "q=0.000" }
        }
    }

    // MARK: The JSON API

    private func api(_ name: String, _ request: Request, _ context: APIRequestContext) async -> Response {
        do {
            if name == "login" {
                guard request.method == .post else { throw WebError(.methodNotAllowed, "POST only") }
                return try await login(request, context)
            }
            // Every other call needs a session; every state change its CSRF token and no other origin.
            guard let found = session(of: request) else { throw WebError(.unauthorized, "not logged in") }
            let (token, session) = (found.token, found.session)
            let changesState = request.method != .get && request.method != .head
            if changesState, let refusal = Self.refusal(request, session) { throw WebError(.forbidden, refusal) }
            guard let user = try await account(of: session, token: token) else { throw WebError(.unauthorized, "not logged in") }
            switch (request.method, name) {
            case (.get, "session"): return try Self.json(SessionAnswer(user: user.name, admin: user.isAdmin, csrf: session.csrf))
            case (.post, "logout"): return logout(token, request)
            case (.get, "query"): return try await query(request, user)
            case (.post, "smart-preview"): return try await smartPreview(request, user)
            case (.post, "smart-playlists"): return try await createSmartPlaylist(request, user)
            case (.get, "status"): return try await status()
            case (.post, "scan"): return try scan(user)
            case (.get, "events"): return events.stream()
            case (_, "session"), (_, "logout"), (_, "query"), (_, "smart-preview"), (_, "smart-playlists"), (_, "status"),
                 (_, "scan"), (_, "events"):
                throw WebError(.methodNotAllowed, "\(request.method) is not allowed on /api/\(name)")
            default: throw WebError(.notFound, "no such call: /api/\(name)")
            }
        } catch let error as WebError {
            return error.response
        } catch let error as QueryError {
            return WebError(.badRequest, error.message, position: error.position).response
        } catch let error as IndexError {
            return WebError(.badRequest, "\(error)").response
        } catch {
            return WebError(.internalServerError, "\(error)").response
        }
    }

    // MARK: Answers

    /// `value` as JSON. `<`, `>` and `&` are written as `\u003c`, `\u003e`, `\u0026` (they occur in JSON
    /// only inside strings): a tag's `<script>` cannot become markup even if an answer is sniffed as HTML.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) throws -> Response {
        let text = try jsonText(value)
        var headers = extra
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func jsonText(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
            .replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }

    /// A request's JSON body (at most 64 KiB), decoded.
    static func body<T: Decodable>(_ request: Request, as type: T.Type) async throws -> T {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: 64 * 1024) else { throw WebError(.contentTooLarge, "the body is larger than 64 KiB") }
        do { return try JSONDecoder().decode(type, from: Data(buffer.readableBytesView)) }
        catch { throw WebError(.badRequest, "the body is not the JSON this call takes") }
    }

    /// The query string's parameters, decoded as a form (`+` is a space, as `URLSearchParams` writes it).
    static func queryParameters(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for piece in (request.uri.query ?? "").split(separator: "&") {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decoded(parts[0])
            if result[name] == nil { result[name] = parts.count > 1 ? decoded(parts[1]) : "" }
        }
        return result
    }
}

/// A refusal of the JSON API: `{"error": …}` with its status.
struct WebError: Error {
    var status: HTTPResponse.Status
    var message: String
    var position: Int? = nil
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String, position: Int? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.position = position
        self.headers = headers
    }

    struct Body: Encodable {
        var error: String
        var position: Int?
        var retryAfter: Int?
    }

    var response: Response {
        let retry = headers[.retryAfter].flatMap { Int($0) }
        return (try? WebApp.json(Body(error: message, position: position, retryAfter: retry), status: status, headers: headers))
            ?? Response(status: status)
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let xCSRFToken = Self("X-CSRF-Token")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
}
