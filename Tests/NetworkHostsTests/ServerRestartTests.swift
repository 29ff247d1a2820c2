import Foundation
import Testing
import TestSupport

/// Issue 38, "`mlib serve` never reconnects after a PostgreSQL restart": the server in the lab restarted
/// under a host's `mlib serve`. While it is down, MPD `status` has an `error:` line and py-sonic's `ping`
/// gets error 0 with a message; within 5 s of its return both answer cleanly again.
@Suite(.serialized, .needsNetworkLab)
struct ServerRestartTests {
    @Test func serveAnswersAgainWithinFiveSecondsOfARestart() throws {
        let lab = try NetworkLab(hosts: ["alpha"])
        defer { lab.close() }
        let alpha = lab.hosts[0]
        let database = try lab.server.makeDatabase()
        let locator = lab.server.locator(database: database)
        for i in 0..<3 { try alpha.song("Song \(i)", at: "s\(i).mp3") }
        try #require(try alpha.mlib(["scan", "--quiet", "--library", locator, lab.music.path]).status == 0)
        try #require(try alpha.mlib(["user", "add", "alice", "--password", "pw", "--library", locator]).status == 0)
        let (serve, ports) = try alpha.serve(["--library", locator, "--http", "0", "--port", "0", "--sink", "null"], ports: 2)
        defer { serve.signal(SIGKILL) }
        let (http, mpd) = (String(ports[0]), String(ports[1]))
        #expect(try alpha.client(["ping", http, "alice", "pw"]) == ["ok"])
        #expect(try alpha.client(["mpd", mpd, "stats"]).contains("songs: 3"))

        try lab.server.stopImmediately()
        let ping = Poll.value(timeout: 15, interval: 0.3, { (try? alpha.client(["ping", http, "alice", "pw"]))?.first ?? "" },
                              until: { $0.hasPrefix("error 0 ") })
        // The message is the view's ("the library cannot be read: …") or the store's ("… the connection to the
        // PostgreSQL server was lost; connecting again"), whichever the ping met first.
        #expect(ping.hasPrefix("error 0 ") && (ping.contains("library") || ping.contains("PostgreSQL")), "ping while PostgreSQL is down: \(ping)")
        let status = Poll.value(timeout: 15, interval: 0.3, { (try? alpha.client(["mpd", mpd, "status"])) ?? [] },
                                until: { $0.contains { $0.hasPrefix("error: ") } })
        #expect(status.contains { $0.hasPrefix("error: ") }, "MPD status while PostgreSQL is down: \(status)")

        try lab.server.start()
        let restarted = ContinuousClock.now
        var healed: Double?
        while healed == nil && seconds(since: restarted) < 10 {
            let pinged = (try? alpha.client(["ping", http, "alice", "pw"])) == ["ok"]
            let clean = ((try? alpha.client(["mpd", mpd, "status"])) ?? ["error: no answer"]).allSatisfy { !$0.hasPrefix("error: ") }
            if pinged && clean { healed = seconds(since: restarted) } else { usleep(100_000) }
        }
        print("◇ serve after a restart of the lab's PostgreSQL: ping and MPD status clean \(healed.map { "\($0) s" } ?? "not within 10 s") after the restart")
        #expect(healed != nil && healed! <= 5, "answers resumed \(healed.map { "\($0) s" } ?? "not within 10 s") after the restart")
        #expect(try alpha.client(["mpd", mpd, "stats"]).contains("songs: 3"))
    }

    /// The host's link to the server cut for 30 s under `mlib serve` (a switch rebooting): meanwhile MPD
    /// `status` says the library cannot be read; within 5 s of the link's return both fronts answer cleanly.
    @Test func serveAnswersAgainWithinFiveSecondsOfACutLinksReturn() throws {
        let lab = try NetworkLab(hosts: ["alpha"])
        defer { lab.close() }
        let alpha = lab.hosts[0]
        let database = try lab.server.makeDatabase()
        let locator = lab.server.locator(database: database)
        for i in 0..<3 { try alpha.song("Song \(i)", at: "s\(i).mp3") }
        try #require(try alpha.mlib(["scan", "--quiet", "--library", locator, lab.music.path]).status == 0)
        try #require(try alpha.mlib(["user", "add", "alice", "--password", "pw", "--library", locator]).status == 0)
        let (serve, ports) = try alpha.serve(["--library", locator, "--http", "0", "--port", "0", "--sink", "null"], ports: 2)
        defer { serve.signal(SIGKILL) }
        let (http, mpd) = (String(ports[0]), String(ports[1]))
        #expect(try alpha.client(["ping", http, "alice", "pw"]) == ["ok"])

        try lab.cut(alpha)
        let cut = ContinuousClock.now
        let status = Poll.value(timeout: 30, interval: 0.5, { (try? alpha.client(["mpd", mpd, "status"])) ?? [] },
                                until: { $0.contains { $0.hasPrefix("error: ") } })
        let noticed = seconds(since: cut)
        #expect(status.contains { $0.hasPrefix("error: ") }, "MPD status during the cut: \(status)")
        while seconds(since: cut) < 30 { usleep(200_000) }
        try lab.reconnect(alpha)
        let back = ContinuousClock.now
        var healed: Double?
        while healed == nil && seconds(since: back) < 30 {
            let pinged = (try? alpha.client(["ping", http, "alice", "pw"])) == ["ok"]
            let clean = ((try? alpha.client(["mpd", mpd, "status"])) ?? ["error: no answer"]).allSatisfy { !$0.hasPrefix("error: ") }
            if pinged && clean { healed = seconds(since: back) } else { usleep(200_000) }
        }
        print("◇ serve under a 30 s cut: status said so \(noticed) s after the cut; answers clean \(healed.map { "\($0) s" } ?? "not within 30 s") after the link's return")
        #expect(healed != nil && healed! <= 5, "answers resumed \(healed.map { "\($0) s" } ?? "not within 30 s") after the link came back")
        #expect(try alpha.client(["mpd", mpd, "stats"]).contains("songs: 3"))
    }
}
