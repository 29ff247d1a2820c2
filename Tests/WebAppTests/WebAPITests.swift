import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// The web app's files and its JSON API (WEBAPP-CONTRACT.md) through `mlib serve --http`.
@Suite struct WebAPITests {
    @Test func thePageAndItsFilesAreInTheBinary() throws {
        let library = try WebLibrary()
        defer { library.remove() }
        let server = try WebServe(library)
        defer { server.stop() }
        let page = try fetch("GET", server.base + "/")
        #expect(page.status == 200 && page.headers["content-type"]?.hasPrefix("text/html") == true, "\(page.status) \(page.headers)")
        #expect(page.text.contains("<html"), "\(page.text)")
        #expect(page.headers["cache-control"] == "no-cache")
        let etag = try #require(page.headers["etag"])
        let again = try fetch("GET", server.base + "/", headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty)
        let zipped = try fetch("GET", server.base + "/app/index.html", headers: ["Accept-Encoding": "br, gzip"])
        #expect(zipped.status == 200 && zipped.headers["content-encoding"] == "gzip", "\(zipped.headers)")
        #expect(zipped.body.starts(with: [0x1f, 0x8b]) && zipped.body.count < page.body.count, "gzip bytes, smaller")
        let unzipped = try ChildProcess.run("sh", ["-c", "curl -s --compressed http://127.0.0.1:\(server.httpPort)/app/index.html"])
        #expect(unzipped.out == page.text, "the gzip decodes to the page")
        #expect(try fetch("GET", server.base + "/app/no-such.js").status == 404)
        #expect(try fetch("GET", server.base + "/elsewhere").status == 404)
    }

    @Test(arguments: Store.available)
    func queriesInTheQueryLanguage(on store: Store) throws {
        let library = try WebLibrary(on: store)
        defer { library.remove() }
        let server = try WebServe(library)
        defer { server.stop() }
        let browser = try Browser(server)
        let all = try browser.call("GET", "/api/query")
        #expect(all.status == 200 && all.json["total"] as? Int == 3, "\(all.text)")
        let found = try browser.call("GET", "/api/query?q=artist:%22markup+artist%22+album:markup&limit=5")
        #expect(found.json["total"] as? Int == 1, "\(found.text)")
        let song = try #require((found.json["items"] as? [[String: Any]])?.first)
        #expect(song["title"] as? String == WebLibrary.markupTitle)
        #expect(song["album"] as? String == "Markup" && song["suffix"] as? String == "flac")
        #expect((song["duration"] as? Double).map { abs($0 - 2) < 0.1 } == true, "\(song)")
        // Ids the Subsonic API takes.
        let id = try #require(song["id"] as? String), albumID = try #require(song["albumId"] as? String)
        #expect(try browser.call("GET", "/rest/getSong?id=\(id)&f=json").text.contains("\"status\":\"ok\""))
        #expect(try browser.call("GET", "/rest/getAlbum?id=\(albumID)&f=json").text.contains("\"status\":\"ok\""))
        // Markup in a tag comes back as JSON-escaped text: never as a tag in the answer's bytes.
        #expect(!found.text.contains("<script>") && found.text.contains("\\u003cscript\\u003e"), "\(found.text)")
        #expect(found.headers["content-type"] == "application/json; charset=utf-8" && found.headers["x-content-type-options"] == "nosniff")

        let paged = try browser.call("GET", "/api/query?sort=-title&offset=1&limit=1")
        #expect(paged.json["total"] as? Int == 3 && (paged.json["items"] as? [Any])?.count == 1, "\(paged.text)")
        let bad = try browser.call("GET", "/api/query?q=" + "year >= AND".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        #expect(bad.status == 400 && bad.json["error"] != nil, "\(bad.text)")
    }

    @Test(arguments: Store.available)
    func smartPlaylistsFromARule(on store: Store) throws {
        let library = try WebLibrary(on: store)
        defer { library.remove() }
        let server = try WebServe(library)
        defer { server.stop() }
        let browser = try Browser(server)
        let preview = try browser.call("POST", "/api/smart-preview", body: #"{"rule":"NOT album:markup","limit":1}"#)
        #expect(preview.status == 200 && preview.json["total"] as? Int == 2 && (preview.json["items"] as? [Any])?.count == 1, "\(preview.text)")
        #expect(try browser.call("POST", "/api/smart-preview", body: #"{"rule":"album:markup"}"#, csrf: false).status == 403)
        #expect(try browser.call("POST", "/api/smart-preview", body: #"{"rule":"year >="}"#).status == 400)

        let made = try browser.call("POST", "/api/smart-playlists", body: #"{"name":"Web rule","rule":"album:markup"}"#)
        #expect(made.status == 201, "\(made.text)")
        let id = try #require(made.json["id"] as? String)
        let playlist = try browser.call("GET", "/rest/getPlaylist?id=\(id)&f=json")
        #expect(playlist.text.contains("\"name\":\"Web rule\"") && playlist.text.contains("\"songCount\":1"), "\(playlist.text)")
        let listed = try mlib(["playlist", "list", "--library", library.library])
        #expect(listed.out.contains("Web rule"), "mlib playlist sees it: \(listed.out)")
        #expect(try browser.call("POST", "/api/smart-playlists", body: #"{"name":"Web rule","rule":"album:x"}"#).status == 409)
    }

    @Test func statusAndScan() throws {
        let library = try WebLibrary()
        defer { library.remove() }
        let server = try WebServe(library)
        defer { server.stop() }
        let admin = try Browser(server)
        let status = try admin.call("GET", "/api/status")
        #expect(status.status == 200, "\(status.text)")
        #expect(status.json["items"] as? Int == 3 && (status.json["albums"] as? Int ?? 0) >= 2 && status.json["scanning"] as? Bool == false, "\(status.text)")
        #expect(status.json["failures"] as? Int == 0 && status.json["version"] is Int)
        let user = try Browser(server, user: WebLibrary.user, password: WebLibrary.userPassword)
        #expect(try user.call("POST", "/api/scan").status == 403, "scans are for admins")
        #expect(try admin.call("GET", "/api/scan").status == 405)
        #expect(try admin.call("POST", "/api/scan").status == 202)
        #expect(try eventually(within: 20) { try admin.call("GET", "/api/status").json["scanning"] as? Bool == false })
    }
}
