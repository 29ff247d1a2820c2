import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 45's security tests: no JSON call without a session; a state change needs the session's CSRF
/// token and no other Origin; five wrong passwords slow the next tries; logout ends the session.
@Suite struct WebSessionTests {
    @Test func noCallWorksWithoutASession() throws {
        let library = try WebLibrary()
        defer { library.remove() }
        let server = try WebServe(library)
        defer { server.stop() }
        for (method, path) in [("GET", "/api/session"), ("GET", "/api/query?q=markup"), ("GET", "/api/status"), ("GET", "/api/events"),
                               ("POST", "/api/scan"), ("POST", "/api/logout"), ("POST", "/api/smart-preview")] {
            let reply = try fetch(method, server.base + path, headers: ["Cookie": "mlib_session=\(String(repeating: "ab", count: 32))"])
            #expect(reply.status == 401, "\(method) \(path) without a session: \(reply.status) \(reply.text)")
            #expect(reply.json["error"] != nil, "\(path): \(reply.text)")
        }
        // The Subsonic API without credentials or a session: its error 10 (a parameter is missing), no data.
        let rest = try fetch("GET", server.base + "/rest/getAlbumList2?type=newest&f=json")
        #expect(rest.text.contains("\"status\":\"failed\""), "\(rest.text)")
        #expect(!rest.text.contains("albumList2\":{\"album"), "\(rest.text)")
    }

    @Test(arguments: Store.available)
    func logInThenOut(on store: Store) throws {
        let library = try WebLibrary(on: store)
        defer { library.remove() }
        let server = try WebServe(library)
        defer { server.stop() }
        let wrong = try fetch("POST", server.base + "/api/login", body: Browser.login(WebLibrary.admin, "not it"))
        #expect(wrong.status == 401)
        #expect(wrong.headers["set-cookie"] == nil)
        let unknown = try fetch("POST", server.base + "/api/login", body: Browser.login("nobody", "not it"))
        #expect(unknown.status == 401 && unknown.text == wrong.text, "an unknown name is answered as a wrong password")

        let login = try fetch("POST", server.base + "/api/login", body: Browser.login(WebLibrary.user, WebLibrary.userPassword))
        #expect(login.status == 200, "\(login.text)")
        #expect(login.json["user"] as? String == WebLibrary.user && login.json["admin"] as? Bool == false)
        let setCookie = try #require(login.headers["set-cookie"])
        #expect(setCookie.hasPrefix("mlib_session=") && setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict")
                && setCookie.contains("Path=/"), "\(setCookie)")
        #expect(setCookie.split(separator: ";")[0].dropFirst("mlib_session=".count).count == 64, "256 bits in hex: \(setCookie)")
        let browser = try Browser(server, user: WebLibrary.user, password: WebLibrary.userPassword)

        let session = try browser.call("GET", "/api/session")
        #expect(session.status == 200 && session.json["user"] as? String == WebLibrary.user && session.json["csrf"] as? String == browser.csrf)
        // The Subsonic API by the cookie alone, as the page calls it.
        let albums = try browser.call("GET", "/rest/getAlbumList2?type=alphabeticalByName&f=json")
        #expect(albums.status == 200 && albums.text.contains("\"status\":\"ok\"") && albums.text.contains("Markup"), "\(albums.text)")

        #expect(try browser.call("POST", "/api/logout", csrf: false).status == 403, "logout is a state change: it needs the token")
        let logout = try browser.call("POST", "/api/logout")
        #expect(logout.status == 204)
        #expect(logout.headers["set-cookie"]?.contains("Max-Age=0") == true, "\(logout.headers)")
        #expect(try browser.call("GET", "/api/session").status == 401, "the session ended with the logout")
        let after = try browser.call("GET", "/rest/getAlbumList2?type=alphabeticalByName&f=json")
        #expect(after.text.contains("\"status\":\"failed\""), "the cookie no longer opens the API: \(after.text)")
    }

    @Test func aStateChangeNeedsTheTokenAndTheServersOrigin() throws {
        let library = try WebLibrary()
        defer { library.remove() }
        let server = try WebServe(library)
        defer { server.stop() }
        let browser = try Browser(server)

        // The JSON API.
        #expect(try browser.call("POST", "/api/scan", csrf: false).status == 403, "no CSRF header")
        #expect(try browser.call("POST", "/api/scan", csrf: false, headers: ["X-CSRF-Token": String(repeating: "0", count: 64)]).status == 403,
                "a wrong CSRF token")
        let foreign = try browser.call("POST", "/api/scan", headers: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403, "the cookie from another origin: \(foreign.status) \(foreign.text)")
        #expect(try browser.call("POST", "/api/scan", headers: ["Origin": "null"]).status == 403, "an opaque origin")
        #expect(try browser.call("POST", "/api/scan").status == 202, "the page's own call")

        // The Subsonic API by the cookie: reads need nothing more, a change needs the token.
        let found = try browser.call("GET", "/api/query?q=title:script")
        let id = try #require(((found.json["items"] as? [[String: Any]])?.first)?["id"] as? String, "\(found.text)")
        let stream = try browser.call("GET", "/rest/stream?id=\(id)")
        #expect(stream.status == 200 && stream.body.count > 1000, "an <audio src> stream by the cookie alone: \(stream.status)")
        let star = try browser.call("GET", "/rest/star?id=\(id)&f=json")
        #expect(star.status == 403 && star.text.contains("\"status\":\"failed\""), "star by the cookie without the token: \(star.text)")
        let starFromElsewhere = try browser.call("GET", "/rest/star?id=\(id)&f=json",
                                                 headers: ["X-CSRF-Token": browser.csrf, "Origin": "http://evil.example"])
        #expect(starFromElsewhere.status == 403, "\(starFromElsewhere.text)")
        let starred = try browser.call("GET", "/rest/star?id=\(id)&f=json", headers: ["X-CSRF-Token": browser.csrf])
        #expect(starred.status == 200 && starred.text.contains("\"status\":\"ok\""), "\(starred.text)")
        let list = try browser.call("GET", "/rest/getStarred2?f=json")
        #expect(list.text.contains("\"id\":\"\(id)\""), "\(list.text)")
    }

    @Test func fiveWrongPasswordsSlowTheNextTries() throws {
        let library = try WebLibrary()
        defer { library.remove() }
        let server = try WebServe(library)
        defer { server.stop() }
        for attempt in 1...5 {
            let reply = try fetch("POST", server.base + "/api/login", body: Browser.login(WebLibrary.admin, "guess \(attempt)"))
            #expect(reply.status == 401, "attempt \(attempt): \(reply.status)")
        }
        // The sixth, even with the right password, waits: refused without the password being checked.
        let slowed = try fetch("POST", server.base + "/api/login", body: Browser.login(WebLibrary.admin, WebLibrary.adminPassword))
        #expect(slowed.status == 429, "\(slowed.status) \(slowed.text)")
        let wait = try #require(slowed.headers["retry-after"].flatMap { Int($0) }, "\(slowed.headers)")
        #expect((1...5).contains(wait), "Retry-After \(wait)")
        #expect(slowed.json["retryAfter"] as? Int == wait)
        // Another name from the same address waits too (the address counts as well as the name).
        #expect(try fetch("POST", server.base + "/api/login", body: Browser.login(WebLibrary.user, "guess")).status == 429)
        // After the wait the right password opens; a wrong one then waits longer (the delay grows).
        Thread.sleep(forTimeInterval: Double(wait) + 0.2)
        let wrongAgain = try fetch("POST", server.base + "/api/login", body: Browser.login(WebLibrary.admin, "guess 6"))
        #expect(wrongAgain.status == 401)
        let longer = try fetch("POST", server.base + "/api/login", body: Browser.login(WebLibrary.admin, WebLibrary.adminPassword))
        #expect(longer.status == 429)
        #expect((longer.headers["retry-after"].flatMap { Int($0) } ?? 0) > wait, "the delay grows: \(longer.headers)")
        Thread.sleep(forTimeInterval: Double(longer.headers["retry-after"].flatMap { Int($0) } ?? 0) + 0.2)
        #expect(try fetch("POST", server.base + "/api/login", body: Browser.login(WebLibrary.admin, WebLibrary.adminPassword)).status == 200)
    }

    @Test func noWebTurnsThePageAndTheCookieOff() throws {
        let library = try WebLibrary()
        defer { library.remove() }
        let web = try WebServe(library)
        let browser = try Browser(web)
        web.stop()
        let server = try WebServe(library, extra: ["--no-web"])
        defer { server.stop() }
        for path in ["/", "/app/index.html", "/api/session"] {
            #expect(try fetch("GET", server.base + path).status == 404, "\(path) with --no-web")
        }
        #expect(try fetch("POST", server.base + "/api/login", body: Browser.login(WebLibrary.admin, WebLibrary.adminPassword)).status == 404)
        let rest = try fetch("GET", server.base + "/rest/getAlbumList2?type=newest&f=json", headers: ["Cookie": browser.cookie])
        #expect(rest.text.contains("\"status\":\"failed\""), "\(rest.text)")
    }
}
