import Foundation
import Library
import MediaIndex

// Shares (`Library+ShareLinks`): public links to songs, albums or playlists, each opened without an account
// at `/share/<id>` (SharePage.swift) until it expires or is deleted. A user lists and edits their own shares,
// an admin everyone's; another user's share answers error 70, as an id never made.
extension Call {
    func shares() async throws -> Node {
        let account = user
        let found = try await server.offLoop { [library = server.library] in try library.shareLinks(visibleTo: account) }
        let catalog = server.catalog, marks = try await marks()
        var node = Node("shares")
        node.add(list: "share", found.map { shareNode($0, catalog, marks) })
        return node
    }

    /// `createShare`: every `id` a song, an album or a playlist this user sees (its songs now, in order);
    /// `description`, `expires` (milliseconds since 1970). Answers the new share.
    func createShare() async throws -> [Node] {
        let catalog = server.catalog
        let ids = parameters.all("id")
        guard !ids.isEmpty else { throw SubsonicError.missing("id") }
        var items: [Int64] = []
        for id in ids {
            if let item = catalog.item(id: id) {
                items.append(catalog.view.ids[Int(item)])
            } else if let album = catalog.albumByID[id] {
                items += catalog.albums[album].items.map { catalog.view.ids[Int($0)] }
            } else if Int64(id) != nil, let playlist = try await visiblePlaylists().first(where: { String($0.id) == id }) {
                let name = user.name
                items += try await server.offLoop { [library = server.library] in try library.items(of: playlist, for: name).map(\.id) }
            } else {
                throw SubsonicError.notFound("Song, album or playlist \(id)")
            }
        }
        let description = parameters["description"]
        let expires = try parameters.dates(milliseconds: "expires").first
        let account = user, chosen = items
        let share = try await server.offLoop { [library = server.library] in
            try library.createShareLink(itemIDs: chosen, description: description, expires: expires, by: account)
        }
        var node = Node("shares")
        node.add(list: "share", [shareNode(share, catalog, try await marks())])
        return [node]
    }

    /// `updateShare`: `description`, `expires` (milliseconds since 1970; 0 removes the expiry); what is not
    /// given is kept.
    func updateShare() async throws -> [Node] {
        let id = try parameters.required("id")
        let description = parameters["description"]
        var expires: Date??
        if let text = parameters["expires"] {
            expires = text.trimmingCharacters(in: .whitespaces) == "0" ? .some(nil) : .some(try parameters.dates(milliseconds: "expires").first)
        }
        let account = user, until = expires
        try await server.offLoop { [library = server.library] in
            try library.updateShareLink(id: id, description: description, expires: until, by: account)
        }
        return []
    }

    func deleteShare() async throws -> [Node] {
        let id = try parameters.required("id"), account = user
        try await server.offLoop { [library = server.library] in try library.removeShareLink(id: id, by: account) }
        return []
    }

    private func shareNode(_ share: ShareLink, _ catalog: Catalog, _ marks: Marks) -> Node {
        var node = Node("share")
        node.set("id", share.id)
        node.set("url", server.shareURL(share.id, request: request))
        node.set("description", share.description)
        node.set("username", share.owner)
        node.set("created", Self.iso(share.created))
        node.set("expires", share.expires.map(Self.iso))
        node.set("lastVisited", share.lastVisited.map(Self.iso))
        node.set("visitCount", share.visitCount)
        node.add(list: "entry", share.itemIDs.compactMap { catalog.itemByID[$0] }.map { songNode($0, catalog, marks, name: "entry") })
        return node
    }
}
