import Foundation
import Testing
import TestSupport

/// Issue 38, "`mlib serve` never reconnects after a PostgreSQL restart": the server in the lab restarted
/// under a host's `mlib serve`. While it is down, MPD `status` has an `error:` line and py-sonic's `ping`
/// gets error 0 with a message; within 5 s of its return both answer cleanly again.
@Suite(.serialized, .needsNetworkLab)
struct ServerRestartTests {
    @Test func serveAnswersAgainWithinFiveSecondsOfARestart() throws {
        let serving = try ServingAlpha()
        defer { serving.close() }
        let (lab, alpha, http, mpd) = (serving.lab, serving.alpha, serving.http, serving.mpd)
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
        let healed = serving.secondsUntilAnswersAreClean(since: restarted, within: 10, every: 0.1)
        print("◇ serve after a restart of the lab's PostgreSQL: ping and MPD status clean \(healed.map { "\($0) s" } ?? "not within 10 s") after the restart")
        #expect(healed != nil && healed! <= 5, "answers resumed \(healed.map { "\($0) s" } ?? "not within 10 s") after the restart")
        #expect(try alpha.client(["mpd", mpd, "stats"]).contains("songs: 3"))
    }

    /// The host's link to the server cut for 30 s under `mlib serve` (a switch rebooting): meanwhile MPD
    /// `status` says the library cannot be read; within 5 s of the link's return both fronts answer cleanly.
    @Test func serveAnswersAgainWithinFiveSecondsOfACutLinksReturn() throws {
        let serving = try ServingAlpha()
        defer { serving.close() }
        let (lab, alpha, http, mpd) = (serving.lab, serving.alpha, serving.http, serving.mpd)
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
        let healed = serving.secondsUntilAnswersAreClean(since: back, within: 30, every: 0.2)
        print("◇ serve under a 30 s cut: status said so \(noticed) s after the cut; answers clean \(healed.map { "\($0) s" } ?? "not within 30 s") after the link's return")
        #expect(healed != nil && healed! <= 5, "answers resumed \(healed.map { "\($0) s" } ?? "not within 30 s") after the link came back")
        #expect(try alpha.client(["mpd", mpd, "stats"]).contains("songs: 3"))
    }
}

/// Both tests' start: alpha serving (MPD and the API) a PostgreSQL library of 3 songs on the lab, with alice
/// able to log in.
private struct ServingAlpha {
    let lab: NetworkLab
    let alpha: LabHost
    let serve: SpawnedProcess
    let http: String, mpd: String

    init() throws {
        lab = try NetworkLab(hosts: ["alpha"])
        do {
            alpha = lab.hosts[0]
            let database = try lab.server.makeDatabase()
            let locator = lab.server.locator(database: database)
            for i in 0..<3 { try alpha.song("Song \(i)", at: "s\(i).mp3") }
            try #require(try alpha.mlib(["scan", "--quiet", "--library", locator, lab.music.path]).status == 0)
            try #require(try alpha.mlib(["user", "add", "alice", "--password", "pw", "--library", locator]).status == 0)
            let ports: [Int]
            (serve, ports) = try alpha.serve(["--library", locator, "--http", "0", "--port", "0", "--sink", "null"], ports: 2)
            (http, mpd) = (String(ports[0]), String(ports[1]))
        } catch {
            lab.close()
            throw error
        }
    }

    func close() {
        serve.signal(SIGKILL)
        lab.close()
    }

    /// Seconds from `start` until the API's ping and MPD's status both answer without an error, asked every
    /// `interval` s; nil when not within `limit` s.
    func secondsUntilAnswersAreClean(since start: ContinuousClock.Instant, within limit: Double, every interval: Double) -> Double? {
        while seconds(since: start) < limit {
            let pinged = (try? alpha.client(["ping", http, "alice", "pw"])) == ["ok"]
            let clean = ((try? alpha.client(["mpd", mpd, "status"])) ?? ["error: no answer"]).allSatisfy { !$0.hasPrefix("error: ") }
            if pinged && clean { return seconds(since: start) }
            usleep(useconds_t(interval * 1_000_000))
        }
        return nil
    }
}
