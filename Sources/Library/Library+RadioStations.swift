import Foundation
import MediaIndex

// Internet radio stations kept in the library (issue 42): every user lists them; only admins add, change or
// remove them, as in Navidrome and Subsonic. `account` nil is the library's own user (the CLI: whoever may
// write the library file or database may change it anyway).
extension Library {
    /// Every station, by name.
    public func radioStations() throws -> [InternetRadioStation] {
        try store.radioStations()
    }

    /// Adds a station. Throws `UsersError.notAllowed` for an account that is not an admin, `.generic` for an
    /// empty name or a stream or home page URL that is not an absolute http(s) URL.
    @discardableResult
    public func addRadioStation(name: String, streamURL: String, homePageURL: String?, by account: UserAccount?) throws -> InternetRadioStation {
        try Self.mayEditRadioStations(account)
        let (name, stream, home) = try Self.checkedStation(name: name, streamURL: streamURL, homePageURL: homePageURL)
        return try store.addRadioStation(name: name, streamURL: stream, homePageURL: home)
    }

    /// Replaces station `id`'s name and URLs (a nil home page removes it). Throws as `addRadioStation`, and
    /// `UsersError.notFound` when there is no such station.
    public func updateRadioStation(id: Int64, name: String, streamURL: String, homePageURL: String?, by account: UserAccount?) throws {
        try Self.mayEditRadioStations(account)
        let (name, stream, home) = try Self.checkedStation(name: name, streamURL: streamURL, homePageURL: homePageURL)
        guard try store.updateRadioStation(id: id, name: name, streamURL: stream, homePageURL: home) else {
            throw UsersError.notFound("Radio station \(id)")
        }
    }

    /// Removes station `id`. Throws `UsersError.notAllowed` for an account that is not an admin, `.notFound`
    /// when there is no such station.
    public func removeRadioStation(id: Int64, by account: UserAccount?) throws {
        try Self.mayEditRadioStations(account)
        guard try store.removeRadioStation(id: id) else { throw UsersError.notFound("Radio station \(id)") }
    }

    private static func mayEditRadioStations(_ account: UserAccount?) throws {
        if let account, !account.isAdmin { throw UsersError.notAllowed("editing radio stations (admins only)") }
    }

    /// The name trimmed, the URLs checked: a player opens the stream by its URL, so only a web URL is kept
    /// (no `file:` path into the server's disk, no script).
    private static func checkedStation(name: String, streamURL: String, homePageURL: String?) throws -> (String, String, String?) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw UsersError.generic("a radio station needs a name") }
        func web(_ text: String, _ what: String) throws -> String {
            let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  let host = url.host, !host.isEmpty else {
                throw UsersError.generic("\(what) is not an http or https URL: \(text)")
            }
            return text
        }
        let home = try homePageURL.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : try web($0, "the home page") }
        return (name, try web(streamURL, "the stream URL"), home)
    }
}
