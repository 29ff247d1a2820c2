import Foundation
import Hummingbird
import Library
import MediaIndex
import MediaModel
import SubsonicServer

// The JSON API's library calls: a query in mlib's query language, a smart playlist's preview and creation,
// the library's status and a scan.
extension WebApp {
    struct SongPage: Encodable {
        var total: Int
        var items: [WebSong]
    }

    struct SmartRule: Decodable {
        var rule: String
        var sort: String?
        var limit: Int?
    }

    struct SmartPlaylistRequest: Decodable {
        var name: String
        var rule: String
        var sort: String?
    }

    struct Created: Encodable {
        var id: String
    }

    struct Status: Encodable {
        var scanning: Bool
        var items: Int
        var albums: Int
        var artists: Int
        var failures: Int
        var version: Int
    }

    static let defaultLimit = 100, largestLimit = 1000

    /// `GET /api/query?q=&sort=&offset=&limit=`.
    func query(_ request: Request, _ user: UserAccount) async throws -> Response {
        let parameters = Self.queryParameters(request)
        func number(_ name: String, _ fallback: Int, _ range: ClosedRange<Int>) throws -> Int {
            guard let text = parameters[name] else { return fallback }
            guard let n = Int(text), range.contains(n) else { throw WebError(.badRequest, "\(name) must be a number from \(range.lowerBound) to \(range.upperBound)") }
            return n
        }
        let rule = SmartPlaylistRule(predicate: parameters["q"] ?? "", sort: parameters["sort"].flatMap { $0.isEmpty ? nil : $0 })
        return try Self.json(try await songs(rule, user, offset: try number("offset", 0, 0...Int(Int32.max)),
                                             limit: try number("limit", Self.defaultLimit, 0...Self.largestLimit)))
    }

    /// `POST /api/smart-preview`: what a smart playlist of this rule would hold, first `limit` of it.
    func smartPreview(_ request: Request, _ user: UserAccount) async throws -> Response {
        let given = try await Self.body(request, as: SmartRule.self)
        let limit = given.limit ?? Self.defaultLimit
        guard (0...Self.largestLimit).contains(limit) else { throw WebError(.badRequest, "limit must be from 0 to \(Self.largestLimit)") }
        return try Self.json(try await songs(SmartPlaylistRule(predicate: given.rule, sort: given.sort), user, offset: 0, limit: limit))
    }

    /// The songs `rule` matches for `user` (their own ratings and plays when they are not the library's
    /// owner), in its order, `limit` of them from `offset`, and how many match. The rule is read as a smart
    /// playlist's (`SmartPlaylistRule.query()`: a format string, or short-form words as `mlib ls` takes
    /// them), so a preview shows what the playlist will hold; the store evaluates it as for `mlib ls`, and
    /// the songs come from the API's in-memory view, with the ids the page passes to `/rest/`.
    func songs(_ rule: SmartPlaylistRule, _ user: UserAccount, offset: Int, limit: Int) async throws -> SongPage {
        var query = try rule.query()
        let library = server.library, store = server.library.store, name = user.isOwner ? nil : user.name, filter = query.filter
        query.filter = try await server.offLoop { try library.predicate(filter, for: name) }
        let (total, ids) = try await server.offLoop { [query] () -> (Int, [Int64]) in
            var page = query
            page.offset = offset
            page.limit = limit
            return (try store.count(query), limit == 0 ? [] : try store.itemIDs(page))
        }
        await server.libraryReady()
        return SongPage(total: total, items: server.webSongs(ids: ids))
    }

    /// `POST /api/smart-playlists`: a smart playlist owned by the user, as `createPlaylist` makes a static one.
    func createSmartPlaylist(_ request: Request, _ user: UserAccount) async throws -> Response {
        let given = try await Self.body(request, as: SmartPlaylistRequest.self)
        let name = given.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw WebError(.badRequest, "a playlist needs a name") }
        let rule = SmartPlaylistRule(predicate: given.rule, sort: given.sort.flatMap { $0.isEmpty ? nil : $0 })
        _ = try rule.query()   // a rule that does not parse is refused here (400), not stored
        let store = server.library.store, owner = user.name
        let made = try await server.offLoop { () -> StoredPlaylist? in
            guard try store.playlist(named: name) == nil else { return nil }
            return try store.createPlaylist(name: name, smart: rule, owner: owner, isPublic: false)
        }
        guard let made else { throw WebError(.conflict, "a playlist named \"\(name)\" exists") }
        return try Self.json(Created(id: String(made.id)), status: .created)
    }

    /// `GET /api/status`.
    func status() async throws -> Response {
        await server.libraryReady()
        let store = server.library.store
        let failures = try await server.offLoop { try store.failures().count }
        let library = server.webLibraryStatus
        return try Self.json(Status(scanning: library.scanning, items: library.items, albums: library.albums, artists: library.artists,
                                    failures: failures, version: events.libraryVersion))
    }

    /// `POST /api/scan`: admins only, as the API's `startScan` (a scan is the whole machine's disk and CPU).
    func scan(_ user: UserAccount) throws -> Response {
        guard user.isAdmin else { throw WebError(.forbidden, "scans are for admins") }
        server.startScan()
        return Response(status: .accepted)
    }
}
