import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// The web app's calls fuzzed as the Subsonic API's are (`RequestFuzzTests`): every `/api/` call with hostile
/// parameters, bodies, methods and headers, `/app/` names that climb, malformed requests, as an ordinary user
/// and without a session (`browser/fuzz_web.py`, some 1,000 requests), on both stores. No 5xx, no dropped
/// connection, only JSON from `/api/`, no file outside the page's, no scan by a non-admin, and the server
/// serves afterwards.
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg") && ChildProcess.exists("python3"), "ffmpeg or python3 missing (scripts/install-deps.sh)"))
struct WebFuzzTests {
    struct Summary: Decodable {
        var requests: Int
        var status: [String: Int]
        var failures: [[String: String]]
    }

    @Test(arguments: Store.available)
    func hostileRequestsToEveryCall(on store: Store) throws {
        let library = try WebLibrary(on: store)
        defer { library.remove() }
        let server = try WebServe(library)
        defer { server.stop() }
        let script = ChildProcess.repo.appendingPathComponent("Tests/WebAppTests/browser/fuzz_web.py").path
        let run = try ChildProcess.run("python3", [script, String(server.httpPort), WebLibrary.user, WebLibrary.userPassword, "quick"])
        let summary = try JSONDecoder().decode(Summary.self, from: run.stdout)
        print("web fuzz (\(store)): \(summary.requests) requests, statuses \(summary.status)")
        #expect(summary.failures.isEmpty, "\(summary.failures.prefix(5))")
        #expect(summary.requests > 800)
        #expect(server.process.isRunning, "the server is still running")
        let after = try Browser(server)
        #expect(try after.call("GET", "/api/query?q=markup").json["total"] as? Int == 1, "the library answers afterwards")
    }

    /// A name with a NUL is no one's: SQLite reads bound text up to its first NUL, so `bob\0` was found as
    /// bob (logged in with bob's password, and a fresh count for the throttle on every such variant).
    @Test(arguments: Store.available)
    func aNameWithANulIsNoOnesName(on store: Store) throws {
        let library = try WebLibrary(on: store)
        defer { library.remove() }
        let server = try WebServe(library)
        defer { server.stop() }
        for name in [WebLibrary.user + "\u{0}", WebLibrary.user + "\u{0}x"] {
            let login = try fetch("POST", server.base + "/api/login", body: Browser.login(name, WebLibrary.userPassword))
            #expect(login.status == 401, "\(name.debugDescription): \(login.status) \(login.text)")
        }
        let password = WebLibrary.userPassword.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let rest = try fetch("GET", server.base + "/rest/ping?u=\(WebLibrary.user)%00&p=\(password)&v=1.16.1&c=t&f=json")
        #expect(rest.text.contains("\"code\":40"), "\(rest.text)")
        let real = try fetch("GET", server.base + "/rest/ping?u=\(WebLibrary.user)&p=\(password)&v=1.16.1&c=t&f=json")
        #expect(real.text.contains("\"status\":\"ok\""), "the real name still logs in: \(real.text)")
    }
}
