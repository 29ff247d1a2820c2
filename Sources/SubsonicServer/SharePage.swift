import Foundation
import Hummingbird
import Library
import MediaIndex

// A share's public link (`createShare`'s `url`), opened without an account: `/share/<id>` is a page listing
// its songs, each playable; `/share/<id>/<song id>` is that song's file as it is (HTTP Range). A link opens
// its own songs only: any other song id through it is 404, as is a share never made or deleted; an expired
// one is 410 Gone.
extension SubsonicServer {
    /// The public link of share `id`, on the host and port the client used (its `Host` header; behind a
    /// proxy, `X-Forwarded-Proto` says https).
    func shareURL(_ id: String, request: Request) -> String {
        let host = request.head.authority ?? "\(configuration.host):\(boundPort ?? configuration.port)"
        let proto = request.headers.first { $0.name.canonicalName == "x-forwarded-proto" }?.value.lowercased()
        let scheme = proto == "https" ? "https" : "http"
        return "\(scheme)://\(host)/share/\(id)"
    }

    /// Answers a path under `/share/`.
    func sharePage(path: String, request: Request) async -> Response {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).dropFirst().map(String.init)   // after "share"
        guard (1...2).contains(parts.count) else { return Self.plain(.notFound, "Not found") }
        let id = parts[0]
        // Only the page counts a visit (a player's range requests for one song are not visits).
        let opening: ShareLinkOpening
        do {
            opening = try await offLoop { [library] in try library.openShareLink(id: id, visiting: parts.count == 1) }
        } catch {
            return Self.plain(.serviceUnavailable, "The library cannot be read now")
        }
        let share: ShareLink
        switch opening {
        case .missing: return Self.plain(.notFound, "No such share")
        case .expired: return Self.plain(.gone, "This share has expired")
        case .open(let open): share = open
        }
        let catalog = self.catalog
        if parts.count == 2 {
            // The song must be one of the share's own: nothing else of the library is reachable through it.
            guard let itemID = Int64(parts[1]), share.itemIDs.contains(itemID), let item = catalog.itemByID[itemID] else {
                return Self.plain(.notFound, "No such song in this share")
            }
            do {
                let file = try await openFile(of: item, catalog, id: parts[1])
                return fileResponse(file, suffix: catalog.view.paths[Int(item)].fileExtension.lowercased(), request: request)
            } catch {
                return Self.plain(.notFound, "The song's file cannot be read")
            }
        }
        return Self.html(page(share, catalog))
    }

    /// The page: the description, then each song (title, artist, album, length) with a player and a link.
    private func page(_ share: ShareLink, _ catalog: Catalog) -> String {
        let view = catalog.view
        let title = share.description ?? "Shared by \(share.owner)"
        var html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Self.escaped(title))</title></head>
            <body><h1>\(Self.escaped(title))</h1>
            <ol class="entries">

            """
        for itemID in share.itemIDs {
            guard let item = catalog.itemByID[itemID] else { continue }
            let name = catalog.value(item, Catalog.Slot.title) ?? view.paths[Int(item)].lastComponent.string
            let album = catalog.albums[Int(catalog.albumOfItem[Int(item)])].name
            let by = [catalog.value(item, Catalog.Slot.artist) ?? "", album].filter { !$0.isEmpty }.joined(separator: " · ")
            let seconds = Int(view.durations[Int(item)].rounded())
            let link = "/share/\(share.id)/\(itemID)"
            html += """
                <li><a href="\(link)">\(Self.escaped(name))</a> \(Self.escaped(by)) (\(seconds / 60):\(String(format: "%02d", seconds % 60)))
                <audio controls preload="none" src="\(link)"></audio></li>

                """
        }
        html += "</ol>\n"
        if let expires = share.expires { html += "<p>Until \(Call.iso(expires))</p>\n" }
        return html + "</body></html>\n"
    }

    /// Text for the page: XML's escaping (`Node.escapeXML`) is HTML's too.
    static func escaped(_ text: String) -> String {
        var out = ""
        Node.escapeXML(text, into: &out)
        return out
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    static func html(_ text: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
