import Foundation
import TestSupport
import Testing

/// `GET /api/events`: the server's player as MPD clients change it, within a second, and the library's version.
@Suite struct WebEventsTests {
    /// The `data:` of each `event: NAME` in an event stream's text, in order.
    static func events(_ name: String, in text: String) -> [[String: Any]] {
        text.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n")
            guard lines.contains("event: \(name)"), let data = lines.first(where: { $0.hasPrefix("data: ") }) else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(data.dropFirst(6).utf8))) as? [String: Any]
        }
    }

    @Test func mpcChangesReachThePageWithinASecond() throws {
        let library = try WebLibrary(longTones: true)
        defer { library.remove() }
        let server = try WebServe(library, player: true)
        defer { server.stop() }
        let browser = try Browser(server)
        #expect(try fetch("GET", server.base + "/api/events").status == 401, "no events without a session")

        let log = library.directory.appendingPathComponent("events.txt").path
        let stream = try SpawnedProcess("curl", ["-s", "-N", "-H", "Cookie: \(browser.cookie)", server.base + "/api/events"], stdout: .file(log))
        defer { if stream.isRunning { stream.terminate() }; stream.waitUntilExit() }
        func text() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        #expect(eventually(within: 5) { !Self.events("library", in: text()).isEmpty && !Self.events("player", in: text()).isEmpty },
                "the library's version and the player's state on connecting: \(text())")
        #expect(Self.events("player", in: text()).first?["index"] as? Int == -1)

        #expect(try server.mpc(["add", "Long"]).status == 0)
        #expect(try server.mpc(["play", "1"]).status == 0)
        var start = Date()
        #expect(eventually(within: 1) { Self.events("player", in: text()).last?["playing"] as? Bool == true },
                "mpc play reached the page in \(Date().timeIntervalSince(start)) s: \(text())")
        let playing = try #require(Self.events("player", in: text()).last)
        #expect((playing["queue"] as? [String])?.count == 2, "\(playing)")
        let first = (playing["current"] as? [String: Any])?["id"] as? String
        #expect(first != nil && playing["index"] as? Int == 0, "\(playing)")

        #expect(try server.mpc(["next"]).status == 0)
        start = Date()
        #expect(eventually(within: 1) { Self.events("player", in: text()).last?["index"] as? Int == 1 },
                "mpc next reached the page in \(Date().timeIntervalSince(start)) s: \(text())")
        let next = try #require(Self.events("player", in: text()).last)
        let current = try #require(next["current"] as? [String: Any])
        #expect(current["id"] as? String != first && current["id"] as? String == (next["queue"] as? [String])?[1], "\(next)")
        #expect(current["title"] is String && current["albumId"] is String)
    }
}
