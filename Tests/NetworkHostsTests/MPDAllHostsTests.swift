import Foundation
import Testing
import TestSupport

/// Issue 38 on the MPD side of `serve --all-hosts`: alpha and beta each have their own, different file at
/// `music/song.mp3`. MPD URIs are paths under this host's roots, so beta's MPD server can name only beta's
/// file there: it must never list two songs under that URI, nor find, queue, play or show the cover of
/// alpha's song (beta would open its own file for it). `--all-hosts` widens the Subsonic side only.
@Suite(.serialized, .needsNetworkLab)
struct MPDAllHostsTests {
    @Test func mpdUnderAllHostsListsAndPlaysOnlyThisHostsSongAtAPathBothHostsHave() throws {
        let lab = try NetworkLab(hosts: ["alpha", "beta"])
        defer { lab.close() }
        let (alpha, beta) = (lab.hosts[0], lab.hosts[1])
        let database = try lab.server.makeDatabase()
        let locator = lab.server.locator(database: database)
        try alpha.song("Alphasong")
        let betaFile = try beta.song("Betasong")
        let cover = betaFile.deletingLastPathComponent().appendingPathComponent("cover.png")
        let made = try ChildProcess.run("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "color=c=red:s=8x8", "-frames:v", "1", cover.path])
        try #require(made.status == 0, "\(made.stderr)")
        for host in [alpha, beta] {
            let scan = try host.mlib(["scan", "--quiet", "--library", locator, lab.music.path])
            try #require(scan.status == 0, "scan on \(host.name): \(scan.stderr)")
        }
        let user = try beta.mlib(["user", "add", "alice", "--password", "pw", "--library", locator])
        try #require(user.status == 0, "\(user.stderr)")
        // Both fronts on one view (the shared-view case) and MPD alone.
        for extra in [["--http", "0"], []] {
            let (serve, ports) = try beta.serve(["--library", locator, "--port", "0", "--all-hosts", "--sink", "null"] + extra,
                                                ports: extra.isEmpty ? 1 : 2)
            defer { serve.signal(SIGKILL) }
            let port = "\(ports.last!)"
            func mpc(_ arguments: [String]) throws -> ChildProcess.Output {
                try beta.run("mpc", ["-h", "127.0.0.1", "-p", port] + arguments)
            }
            let case_ = extra.isEmpty ? "MPD alone" : "MPD beside --http"
            if !extra.isEmpty {
                // The Subsonic side beside it still lists every host's songs.
                let songs = try beta.client(["songs", "\(ports[0])", "alice", "pw"])
                #expect(songs.map { $0.split(separator: "\t").last.map(String.init) ?? "" }.sorted() == ["Alphasong", "Betasong"],
                        "--all-hosts: the Subsonic API lists both hosts' songs: \(songs)")
            }
            let listed = try mpc(["listall"])
            #expect(listed.status == 0 && listed.out.split(separator: "\n").filter { $0.hasSuffix("song.mp3") }.count == 1,
                    "\(case_): one song under song.mp3: \(listed.out) \(listed.stderr)")
            let titles = try mpc(["-f", "%title%", "search", "any", "song"])
            #expect(titles.out.split(separator: "\n").map(String.init) == ["Betasong"], "\(case_): search finds beta's song only: \(titles.out)")
            let found = try mpc(["find", "title", "Alphasong"])
            #expect(found.out.isEmpty, "\(case_): alpha's song is not found: \(found.out)")
            _ = try mpc(["findadd", "title", "Alphasong"])
            let add = try mpc(["add", "song.mp3"])
            #expect(add.status == 0, "\(case_): add song.mp3: \(add.stderr)")
            let queue = try mpc(["-f", "%title%", "playlist"])
            #expect(queue.out.split(separator: "\n").map(String.init) == ["Betasong"], "\(case_): the queue holds beta's song only: \(queue.out)")
            let play = try mpc(["-f", "%title%", "play"])
            #expect(play.out.hasPrefix("Betasong"), "\(case_): beta plays its own song: \(play.out) \(play.stderr)")
            _ = try mpc(["stop"])
            _ = try mpc(["clear"])
            let art = try mpc(["albumart", "song.mp3"])
            let coverBytes = try Data(contentsOf: cover)
            #expect(art.status == 0 && art.stdout == coverBytes, "\(case_): albumart of song.mp3 is beta's cover")
        }
        #expect(try lab.server.sql("SELECT coalesce(sum(\"playCount\"), 0) FROM items WHERE \"title\" = 'Alphasong'", database: database) == "0",
                "no play counted on alpha's song")
    }
}
