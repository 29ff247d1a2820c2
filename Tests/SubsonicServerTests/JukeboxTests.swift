import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// `jukeboxControl` drives the MPD server's player: one queue, edited from a Subsonic client and from mpc,
/// each side seeing the other's changes (`Scripts/jukebox_client.py`, every JSON answer validated against
/// OpenSubsonic's OpenAPI description, py-sonic as a client library), on both stores; an ordinary user is
/// refused (error 50), as `getUser`'s jukeboxRole says; hostile values from an admin get error answers, not
/// a 5xx (the fuzzer's user is no admin); `--no-mpd` has no jukebox.
@Suite(.serialized, .enabled(if: pythonClientInstalled && ChildProcess.exists("ffmpeg") && ChildProcess.exists("mpc"),
                             "python3 with py-sonic and openapi-schema-validator, ffmpeg or mpc missing (scripts/install-deps.sh)"))
struct JukeboxTests {
    struct Summary: Decodable {
        struct Status: Decodable, Equatable {
            var currentIndex: Int
            var playing: Bool
            var gain: Double
            var position: Int
        }
        struct Sides: Decodable, Equatable {
            var jukebox: [String]
            var mpd: [String]
        }
        var set: Status
        var afterSet: Sides
        var afterMpcAdd: Sides
        var remove: Status
        var afterRemove: Sides
        var setGain: Status
        var mpdVolume: String
        var skip: Status
        var mpdCurrent: String
        var stop: Status
        var mpdState: String
        var start: Status
        var status: Status
        var pysonicGet: [String]
        var shuffleKeepsSongs: Bool
        var afterShuffle: Sides
        var clear: Status
        var afterClear: Sides
        var errors: [String: Int?]
        var roles: [String: Bool]
        var hostileCodes: [Int]
        var aliveAfter: Bool
        var nowPlayingWhilePlaying: [[String?]]
        var nowPlayingWhilePaused: [[String?]]
    }

    @Test(arguments: Store.available)
    func oneQueueForPhonesAndMPDClients(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let planted = library.music.appendingPathComponent("Planted")
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: true)
        for (n, name) in ["A", "B", "C", "D"].enumerated() {
            let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=\(300 + n * 100):d=60", "-c:a", "flac",
                                                       "-metadata", "title=Long \(name)", planted.appendingPathComponent("long-\(name.lowercased()).flac").path])
            try #require(made.status == 0, "\(made.stderr)")
        }
        try #require(try mlib(["scan", "-q", "--library", library.library, library.music.path]).status == 0)
        try #require(try mlib(["user", "add", "bob", "--password", "bobpass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        let server = try BothServeProcess(library: library)
        defer { server.stop() }

        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/jukebox_client.py").path,
                                                   String(server.httpPort), String(server.mpdPort), TestLibrary.user, TestLibrary.password,
                                                   "bob", "bobpass", Paths.openAPI.path])
        #expect(run.status == 0, "\(run.stderr)")
        guard run.status == 0 else { return }
        let s = try JSONDecoder().decode(Summary.self, from: run.stdout)
        #expect(s.set.currentIndex == -1 && !s.set.playing)
        #expect(s.afterSet == .init(jukebox: ["Long A", "Long B", "Long C"], mpd: ["Long A", "Long B", "Long C"]))
        #expect(s.afterMpcAdd == .init(jukebox: ["Long A", "Long B", "Long C", "Long D"], mpd: ["Long A", "Long B", "Long C", "Long D"]))
        #expect(s.afterRemove == .init(jukebox: ["Long B", "Long C", "Long D"], mpd: ["Long B", "Long C", "Long D"]))
        #expect(s.setGain.gain == 0.5 && s.mpdVolume.contains("50%"), "\(s.setGain) \(s.mpdVolume)")
        #expect(s.skip.currentIndex == 1 && s.skip.playing && s.skip.position >= 5, "\(s.skip)")
        #expect(s.mpdCurrent == "Long C")
        // getNowPlaying lists the server's own player while it plays, and not while it is paused.
        #expect(s.nowPlayingWhilePlaying == [["Long C", "mlib serve", "playing"]], "\(s.nowPlayingWhilePlaying)")
        #expect(s.nowPlayingWhilePaused == [], "\(s.nowPlayingWhilePaused)")
        #expect(!s.stop.playing && s.stop.currentIndex == 1 && s.mpdState == "[paused]", "\(s.stop) \(s.mpdState)")
        #expect(s.start.playing && s.start.currentIndex == 1 && s.start.position >= 5, "\(s.start)")
        #expect(s.status.playing)
        #expect(s.pysonicGet == ["Long B", "Long C", "Long D"])
        #expect(s.shuffleKeepsSongs && s.afterShuffle.jukebox == s.afterShuffle.mpd)
        #expect(s.afterClear == .init(jukebox: [], mpd: []) && s.clear.currentIndex == -1 && !s.clear.playing)
        #expect(s.errors == ["badIndex": 0, "unknownSong": 70, "unknownAction": 0, "notAdmin": 50])
        #expect(s.roles == ["admin": true, "other": false])
        // Hostile values from an admin: error answers (0: out of range or unknown, 10: missing, 70: no such
        // song) and the server still playing nothing, answering.
        #expect(Set(s.hostileCodes).isSubset(of: [0, 10, 70]) && s.aliveAfter, "\(s.hostileCodes)")
        #expect(server.stop() == 0)
    }

    /// Without a player (`--no-mpd`) the call says so (error 0), and no one has the jukebox role.
    @Test func noPlayerNoJukebox() async throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let answer = try await http("http://127.0.0.1:\(server.port)/rest/jukeboxControl?action=get&f=json&\(BothServeProcess.auth)")
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(text.contains("\"code\":0") && text.contains("no jukebox"), "\(text)")
        let user = String(decoding: try await http("http://127.0.0.1:\(server.port)/rest/getUser?username=\(TestLibrary.user)&f=json&\(BothServeProcess.auth)").body, as: UTF8.self)
        #expect(user.contains("\"jukeboxRole\":false"), "\(user)")
        #expect(server.stop() == 0)
    }
}
