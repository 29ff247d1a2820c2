import Foundation
import Testing
import TestSupport

/// Issue 38, "the wrong file is touched", on two hosts that each have their own, different file at the
/// same path (`music/song.mp3`): a command on beta that selects alpha's item must not touch beta's file,
/// and beta's Subsonic server must never send beta's file for alpha's song.
@Suite(.serialized, .needsNetworkLab)
struct WrongFileTests {
    @Test func tagPlayAndStreamOnBetaNeverTouchAlphasSongAtTheSamePath() throws {
        let lab = try NetworkLab(hosts: ["alpha", "beta"])
        defer { lab.close() }
        let (alpha, beta) = (lab.hosts[0], lab.hosts[1])
        let database = try lab.server.makeDatabase()
        let locator = lab.server.locator(database: database)
        try alpha.song("Alphasong")
        let betaFile = try beta.song("Betasong")
        for host in [alpha, beta] {
            let scan = try host.mlib(["scan", "--quiet", "--library", locator, lab.music.path])
            try #require(scan.status == 0, "scan on \(host.name): \(scan.stderr)")
        }
        #expect(try lab.server.sql("SELECT count(*) FROM items WHERE path_text = '\(lab.music.path)/song.mp3'", database: database) == "2")
        let betaBytes = try Data(contentsOf: betaFile)

        let tag = try beta.mlib(["tag", "--yes", "--library", locator, "title:Alphasong", "title=Written on beta"])
        #expect(tag.status == 1 && tag.stderr.contains("another host"), "tag on beta: status \(tag.status): \(tag.stderr)")
        #expect(try Data(contentsOf: betaFile) == betaBytes, "beta's own file at that path is untouched")
        let play = try beta.mlib(["play", "--sink", "null:fast", "--library", locator, "title:Alphasong"])
        #expect(play.status == 1 && play.stderr.contains("cannot play"), "play on beta: status \(play.status): \(play.stderr)")
        #expect(try lab.server.sql("SELECT coalesce(sum(\"playCount\"), 0) FROM items", database: database) == "0", "no play counted")
        #expect(try lab.server.sql("SELECT \"title\" FROM items ORDER BY \"title\"", database: database) == "Alphasong\nBetasong")

        // Subsonic: alice logs in on both hosts (the key file copied, as the README says).
        let add = try alpha.mlib(["user", "add", "alice", "--password", "pw", "--library", locator])
        try #require(add.status == 0, "\(add.stderr)")
        let keyFile = ".config/mlib/\(database).users-key"
        try FileManager.default.createDirectory(at: beta.home.appendingPathComponent(".config/mlib"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: alpha.home.appendingPathComponent(keyFile), to: beta.home.appendingPathComponent(keyFile))
        let (alphaServe, alphaPorts) = try alpha.serve(["--library", locator, "--http", "0", "--no-mpd"], ports: 1)
        defer { alphaServe.signal(SIGKILL) }
        let (betaServe, betaPorts) = try beta.serve(["--library", locator, "--http", "0", "--no-mpd"], ports: 1)
        defer { betaServe.signal(SIGKILL) }
        let alphaSongs = try alpha.client(["songs", "\(alphaPorts[0])", "alice", "pw"])
        let alphaSong = try #require(alphaSongs.first { $0.hasSuffix("\tAlphasong") }?.split(separator: "\t").first.map(String.init),
                                     "alpha lists its song: \(alphaSongs)")
        let betaSongs = try beta.client(["songs", "\(betaPorts[0])", "alice", "pw"])
        #expect(betaSongs.map { $0.split(separator: "\t").last.map(String.init) ?? "" } == ["Betasong"], "beta lists its own song only: \(betaSongs)")
        let out = beta.home.appendingPathComponent("streamed")
        let stream = try beta.client(["stream", "\(betaPorts[0])", "alice", "pw", alphaSong, out.path])
        #expect(stream.first?.hasPrefix("error 70") == true, "beta's stream of alpha's song: \(stream)")
        let sent = try? Data(contentsOf: out)
        #expect(sent != betaBytes, "beta's file was not sent")
        let betaSong = try #require(betaSongs.first?.split(separator: "\t").first.map(String.init))
        let own = try beta.client(["stream", "\(betaPorts[0])", "alice", "pw", betaSong, out.path])
        let streamed = try? Data(contentsOf: out)
        #expect(own.first == "ok \(betaBytes.count)" && streamed == betaBytes, "beta streams its own song: \(own)")

        // `serve --all-hosts` lists alpha's song on beta too, but never sends beta's file under its title.
        let (allServe, allPorts) = try beta.serve(["--library", locator, "--http", "0", "--no-mpd", "--all-hosts"], ports: 1)
        defer { allServe.signal(SIGKILL) }
        let allSongs = try beta.client(["songs", "\(allPorts[0])", "alice", "pw"])
        #expect(allSongs.map { $0.split(separator: "\t").last.map(String.init) ?? "" }.sorted() == ["Alphasong", "Betasong"],
                "--all-hosts lists both hosts' songs: \(allSongs)")
        try? FileManager.default.removeItem(at: out)
        let other = try beta.client(["stream", "\(allPorts[0])", "alice", "pw", alphaSong, out.path])
        #expect(other.first?.hasPrefix("error 70") == true, "--all-hosts: beta's stream of alpha's song: \(other)")
        #expect((try? Data(contentsOf: out)) != betaBytes, "--all-hosts: beta's file was not sent for alpha's song")

        // Nor beta's cover: a cover file in beta's folder at that path is beta's folder's, not alpha's.
        let cover = betaFile.deletingLastPathComponent().appendingPathComponent("cover.png")
        let made = try ChildProcess.run("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "color=c=red:s=8x8", "-frames:v", "1", cover.path])
        try #require(made.status == 0, "\(made.stderr)")
        let coverBytes = try Data(contentsOf: cover)
        try? FileManager.default.removeItem(at: out)
        let ownCover = try beta.client(["cover", "\(allPorts[0])", "alice", "pw", betaSong, out.path])
        #expect(ownCover.first == "ok \(coverBytes.count)", "--all-hosts: beta's own song's cover: \(ownCover)")
        try? FileManager.default.removeItem(at: out)
        let otherCover = try beta.client(["cover", "\(allPorts[0])", "alice", "pw", alphaSong, out.path])
        #expect(otherCover.first?.hasPrefix("error 70") == true, "--all-hosts: beta's cover of alpha's song: \(otherCover)")
        #expect((try? Data(contentsOf: out)) != coverBytes, "--all-hosts: beta's cover was not sent for alpha's song")
    }
}
