import Foundation
import Hummingbird
import Library
import MediaIndex
import NIOCore

// The household's accounts through the API (the library's `Users`, as `mlib user` manages them): anyone
// reads their own account and changes their own password; only an admin reads, makes, changes or deletes
// another's.
extension Call {
    func getUser() async throws -> Node {
        let name = parameters["username"] ?? user.name
        guard name == user.name || user.isAdmin else { throw SubsonicError.notAuthorized("other users") }
        guard let account = try await account(named: name) else { throw SubsonicError.notFound("User \(name)") }
        return userNode(account)
    }

    func getUsers() async throws -> Node {
        guard user.isAdmin else { throw SubsonicError.notAuthorized("other users") }
        let accounts = try await server.offLoop { [users = server.users] in try users.list() }
        var node = Node("users")
        node.add(list: "user", accounts.map(userNode))
        return node
    }

    /// `createUser`: a name, a password (clear or `enc:` hex) and `adminRole`; no API key (the new user makes
    /// one with `mlib user key`). The other roles are mlib's fixed ones.
    func createUser() async throws -> [Node] {
        guard user.isAdmin else { throw SubsonicError.notAuthorized("making users") }
        let name = try parameters.required("username"), password = try clearPassword()
        let admin = try parameters.bool("adminRole", false)
        _ = try await server.offLoop { [users = server.users] in try users.add(name: name, password: password, admin: admin, apiKey: false) }
        return []
    }

    /// `updateUser`: the password only. A change of `adminRole` is refused (`mlib user admin` makes admins), never
    /// ignored.
    func updateUser() async throws -> [Node] {
        guard user.isAdmin else { throw SubsonicError.notAuthorized("changing users") }
        let name = try parameters.required("username")
        guard let account = try await account(named: name) else { throw SubsonicError.notFound("User \(name)") }
        if let admin = try parameters["adminRole"].map({ _ in try parameters.bool("adminRole", account.isAdmin) }), admin != account.isAdmin {
            throw SubsonicError.generic("adminRole cannot be changed through the API: use mlib user admin")
        }
        if parameters["password"] != nil {
            let password = try clearPassword()
            try await server.offLoop { [users = server.users] in try users.setPassword(name: name, to: password) }
        }
        return []
    }

    /// `deleteUser`: never one's own account, nor the library's owner (whose values are the items' own).
    func deleteUser() async throws -> [Node] {
        guard user.isAdmin else { throw SubsonicError.notAuthorized("deleting users") }
        let name = try parameters.required("username")
        guard name != user.name else { throw SubsonicError.notAuthorized("deleting one's own account") }
        guard let account = try await account(named: name) else { throw SubsonicError.notFound("User \(name)") }
        guard !account.isOwner else { throw SubsonicError.notAuthorized("deleting the library's owner") }
        try await server.offLoop { [users = server.users] in try users.remove(name: name) }
        return []
    }

    func changePassword() async throws -> [Node] {
        let name = try parameters.required("username")
        guard name == user.name || user.isAdmin else { throw SubsonicError.notAuthorized("another user's password") }
        let password = try clearPassword()
        try await server.offLoop { [users = server.users] in try users.setPassword(name: name, to: password) }
        return []
    }

    private func account(named name: String) async throws -> UserAccount? {
        try await server.offLoop { [store = server.users.store] in try store.user(named: name) }
    }

    /// The `password` parameter, clear or `enc:` + hex, as Subsonic sends it.
    private func clearPassword() throws -> String {
        guard let clear = Users.clearPassword(try parameters.required("password")) else {
            throw SubsonicError.generic("password: enc: is not hex of UTF-8")
        }
        return clear
    }

    func userNode(_ account: UserAccount) -> Node {
        var node = Node("user")
        node.set("username", account.name)
        node.set("scrobblingEnabled", true)
        node.set("adminRole", account.isAdmin)
        for role in ["settingsRole", "downloadRole", "playlistRole", "coverArtRole", "streamRole"] { node.set(role, true) }
        // The jukebox is the server's one player: admins drive it, when there is one (`mlib serve` without --no-mpd).
        node.set("jukeboxRole", account.isAdmin && server.jukebox.withLock { $0 != nil })
        // Every account may share (its own shares: `Library+ShareLinks`).
        node.set("shareRole", true)
        for role in ["uploadRole", "commentRole", "podcastRole", "videoConversionRole"] { node.set(role, false) }
        node.set("folder", ints: Array(server.view.snapshot.roots.indices))
        return node
    }
}

// A user's picture. mlib keeps no uploaded avatars (that would be a schema step): every account gets the
// same placeholder, as Navidrome sends without a Gravatar.
extension Call {
    /// `getAvatar`: `Placeholder.avatar` for `username` (else the asking user). An admin gets error 70 for
    /// a name that is no account; anyone else gets the placeholder for any other name without a lookup, so
    /// that the answer does not say whether an account exists (as `getUser` and a failed login do not),
    /// while a client showing who plays what still gets a picture.
    func avatar() async throws -> Response {
        let name = parameters["username"] ?? user.name
        if name == user.name || user.isAdmin {
            guard try await account(named: name) != nil else { throw SubsonicError.notFound("User \(name)") }
        }
        var headers = HTTPFields()
        headers[.contentType] = "image/png"
        headers[.contentLength] = String(Placeholder.avatar.count)
        headers[.cacheControl] = "max-age=3600"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: Placeholder.avatar)))
    }
}
