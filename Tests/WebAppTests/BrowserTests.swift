import Foundation
import TestSupport
import Testing

/// Why the browser test cannot run here (scripts/install-deps.sh installs all of it, as CI does), or nil.
let browserMissing: String? = {
    if !FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") { return "Debian's chromium is not installed (scripts/install-deps.sh)" }
    if (try? ChildProcess.run("python3", ["-c", "import playwright.sync_api"]).status) != 0 { return "python3 has no playwright (scripts/install-deps.sh)" }
    if !ChildProcess.exists("mpc") || !ChildProcess.exists("ffmpeg") { return "mpc or ffmpeg missing (scripts/install-deps.sh)" }
    return nil
}()

/// Issue 45's "Done when", in a real browser: `browser/web_app_flow.py` drives Debian's chromium headless
/// through Playwright (PyPI; `executable_path`, no browser download) against `mlib serve --http` with the
/// server's player (`--sink null`) and its MPD port, which `mpc` drives. The walk: sign in, search with a
/// query-language term, open an album, play a FLAC and an ALAC track in the browser (`currentTime` advances;
/// the ALAC one is asked for as Opus), queue five songs and reorder them by keyboard and by drag and drop,
/// make a smart playlist from a rule and see its matches, switch to the server's player and see `mpc current`
/// change, `mpc next` and the page following within 1 s, sign out. Library text holding HTML shows as text.
/// Screenshots of every page at 375 px and 1280 px, light and dark, are kept in `.build/evidence/WebAppTests`
/// (a run leaves the checkout clean); `MLIB_EVIDENCE_DIR=Tests/WebAppTests/Evidence` renews the reviewed set
/// kept in the repository, which README shows.
@Suite(.serialized, .enabled(if: browserMissing == nil, Comment(rawValue: browserMissing ?? "")))
struct BrowserTests {
    static let user = "alice", password = "pass wörd"
    static let repo = ChildProcess.repo
    static let script = repo.appendingPathComponent("Tests/WebAppTests/browser/web_app_flow.py")
    static let evidence = ProcessInfo.processInfo.environment["MLIB_EVIDENCE_DIR"].map { URL(fileURLWithPath: $0, relativeTo: repo) }
        ?? repo.appendingPathComponent(".build/evidence/WebAppTests")
    static let hostileTitle = "hostile <script>window.__xss=2</script>"
    static let hostileAlbum = "<img src=x onerror=\"window.__xss=1\"><b>bold</b>"

    struct Audio: Decodable { var src: String; var time: Double; var paused: Bool; var transcoded: String? }
    struct StreamRequest: Decodable { var url: String; var status: Int; var type: String }
    struct Summary: Decodable {
        var errors: [String: String]
        var pageErrors: [String]
        var consoleErrors: [String]
        var streams: [StreamRequest]
        var beforeLogin: [String: AnyScalar]?
        var wrongPassword: String?
        var who: String?
        var albumCards: Int?
        var readableCookies: String?
        var storage: Int?
        var searchTotal: String?
        var searchTitles: [String]?
        var badQuery: String?
        var hostileTitles: [String]?
        var hostileAlbumHeading: String?
        var xss: Int?
        var injectedElements: Int?
        var albumHeading: String?
        var albumTracks: [String]?
        var flac: Audio?
        var flacNowTitle: String?
        var mediaSession: String?
        var activeLyric: String?
        var alac: Audio?
        var queued: [String]?
        var afterKeyboardMove: [String]?
        var focusAfterMove: String?
        var afterDrag: [String]?
        var smartPreview: String?
        var smartPreviewTitles: [String]?
        var smartSavedHeading: String?
        var smartSavedTitles: [String]?
        var mpcAfterSwitch: String?
        var mpcQueue: [String]?
        var mpcAfterNext: String?
        var followMs: Int?
        var mpcAfterPageNext: String?
        var pageAfterPageNext: String?
        var afterLogout: [String: Int]?
    }

    /// A JSON number or string (`beforeLogin` mixes statuses and Subsonic's "failed").
    enum AnyScalar: Decodable, Equatable {
        case int(Int), string(String)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let i = try? c.decode(Int.self) { self = .int(i) } else { self = .string(try c.decode(String.self)) }
        }
    }

    @Test func theWebAppInChromium() async throws {
        let library = try BrowserLibrary()
        defer { library.remove() }
        let server = try BrowserServe(library: library)
        defer { server.stop() }

        let run = try SpawnedProcess("python3", [Self.script.path, "http://127.0.0.1:\(server.httpPort)", String(server.mpdPort),
                                                 Self.user, Self.password, Self.evidence.path], stdout: .pipe, stderr: .pipe)
        let (stdout, stderr, timedOut) = run.readToEnd(killingAfter: 300)
        let errorText = String(decoding: stderr, as: UTF8.self)
        #expect(!timedOut && run.terminationStatus == 0, "web_app_flow.py: \(errorText)")
        guard run.terminationStatus == 0, !timedOut else { return }
        let s = try JSONDecoder().decode(Summary.self, from: stdout)
        let tracks = (1...6).map { "Track \($0)" }

        #expect(s.errors.isEmpty, "\(s.errors.map { "\($0.key): \($0.value)" }.joined(separator: "\n"))")
        #expect(s.pageErrors.isEmpty, "\(s.pageErrors)")
        // A 401 before sign-in is logged by chromium as a failed resource: that is the point of that step.
        #expect(s.consoleErrors.filter { !$0.contains("Failed to load resource") }.isEmpty, "\(s.consoleErrors)")

        // No page data and no session without signing in; a wrong password is refused and said so.
        #expect(s.beforeLogin?["query"] == .int(401) && s.beforeLogin?["session"] == .int(401)
                && [.string("failed"), .string("http 401")].contains(s.beforeLogin?["album"]), "\(String(describing: s.beforeLogin))")
        #expect(s.wrongPassword?.isEmpty == false)
        #expect(s.who == Self.user)
        #expect((s.albumCards ?? 0) >= 4, "\(String(describing: s.albumCards))")
        #expect(s.readableCookies == "" && s.storage == 0, "the session cookie is HttpOnly and the CSRF token stays in memory")

        #expect(s.searchTotal == "6 songs" && s.searchTitles == tracks, "\(String(describing: s.searchTotal)) \(String(describing: s.searchTitles))")
        #expect(s.badQuery?.isEmpty == false)
        #expect(s.hostileTitles == [Self.hostileTitle] && s.hostileAlbumHeading == Self.hostileAlbum,
                "\(String(describing: s.hostileTitles)) \(String(describing: s.hostileAlbumHeading))")
        #expect(s.xss == nil && s.injectedElements == 0, "HTML in tags must show as text")

        #expect(s.albumHeading == "Web Album" && s.albumTracks == tracks, "\(String(describing: s.albumTracks))")
        let flac = try #require(s.flac)
        #expect(flac.time > 1 && !flac.src.contains("format=") && flac.transcoded == "false", "\(flac)")
        #expect(s.flacNowTitle == "Track 1" && s.mediaSession == "Track 1")
        #expect(s.activeLyric?.hasSuffix("line") == true, "the synced lyric line following the music: \(String(describing: s.activeLyric))")
        let alac = try #require(s.alac)
        #expect(alac.time > 1 && alac.src.contains("format=opus") && alac.transcoded == "true", "\(alac)")
        #expect(s.streams.contains { $0.url.contains("format=opus") && $0.status == 200 }, "\(s.streams)")
        #expect(s.streams.contains { !$0.url.contains("format=") && (200...206).contains($0.status) }, "\(s.streams)")

        #expect(s.queued == Array(tracks.prefix(5)), "\(String(describing: s.queued))")
        #expect(s.afterKeyboardMove == ["Track 2", "Track 1", "Track 3", "Track 4", "Track 5"], "\(String(describing: s.afterKeyboardMove))")
        #expect(s.focusAfterMove == "Move Track 1 down", "keyboard users keep their place: \(String(describing: s.focusAfterMove))")
        #expect(s.afterDrag == ["Track 5", "Track 2", "Track 1", "Track 3", "Track 4"], "\(String(describing: s.afterDrag))")

        #expect(s.smartPreview?.hasPrefix("6 songs match") == true && s.smartPreviewTitles == tracks,
                "\(String(describing: s.smartPreview)) \(String(describing: s.smartPreviewTitles))")
        #expect(s.smartSavedHeading == "Nineties from the page" && s.smartSavedTitles?.count == 6,
                "\(String(describing: s.smartSavedHeading)) \(String(describing: s.smartSavedTitles))")
        let listed = try ChildProcess.run(ChildProcess.mlib.path, ["playlist", "list", "--library", library.library])
        #expect(listed.out.contains("Nineties from the page"), "mlib playlist list: \(listed.out) \(listed.stderr)")

        // The server's player: the page's queue goes there, mpc sees it, and the page follows mpc.
        #expect(s.mpcQueue == ["Track 5", "Track 2", "Track 1", "Track 3", "Track 4"], "\(String(describing: s.mpcQueue))")
        #expect(s.mpcAfterSwitch == "Track 5", "\(String(describing: s.mpcAfterSwitch))")
        #expect(s.mpcAfterNext == "Track 2")
        #expect((s.followMs ?? .max) < 1000, "the page followed mpc next in \(String(describing: s.followMs)) ms")
        #expect(s.mpcAfterPageNext == "Track 1" && s.pageAfterPageNext == "Track 1",
                "\(String(describing: s.mpcAfterPageNext)) \(String(describing: s.pageAfterPageNext))")

        #expect(s.afterLogout == ["session": 401, "query": 401], "\(String(describing: s.afterLogout))")
        for page in ["login", "albums", "album", "artists", "songs", "genres", "folders", "search", "playlists", "smart-playlist", "queue",
                     "now-playing", "status"] {
            for width in [375, 1280] {
                #expect(FileManager.default.fileExists(atPath: Self.evidence.appendingPathComponent("\(page)-\(width).png").path), "\(page)-\(width).png")
            }
        }
        #expect(server.stop() == 0)
    }
}

/// A small library for the browser: six 30-second FLAC tracks of "Web Album" (1995; Track 1 with synced
/// lyrics in a .lrc beside it), an ALAC "Apple Lossless Song", a track whose title and album hold HTML, and
/// the repository's FLAC and ALAC fixtures; scanned, with an admin user.
struct BrowserLibrary {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-web-\(UUID().uuidString)")
    var music: URL { directory.appendingPathComponent("music") }
    var library: String { directory.appendingPathComponent("library.sqlite").path }
    var keyFile: String { directory.appendingPathComponent("users-key").path }

    init() throws {
        let fm = FileManager.default, music = self.music
        for sub in ["Web Album", "Apple Album", "Hostile", "Fixtures"] {
            try fm.createDirectory(at: music.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        func make(_ path: String, _ codec: String, frequency: Int, _ tags: [String: String]) throws {
            let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=\(frequency):d=30", "-ac", "2", "-c:a", codec]
                + tags.sorted { $0.key < $1.key }.flatMap { ["-metadata", "\($0.key)=\($0.value)"] } + [music.appendingPathComponent(path).path])
            guard made.status == 0 else { throw TestFailure("ffmpeg \(path): \(made.stderr)") }
        }
        for n in 1...6 {
            try make("Web Album/0\(n).flac", "flac", frequency: 300 + 50 * n,
                     ["title": "Track \(n)", "artist": "Web Artist", "album": "Web Album", "date": "1995", "track": "\(n)", "genre": "Jazz"])
        }
        try Data("[00:00.00]First line\n[00:00.80]Second line\n[00:02.00]Third line\n[00:20.00]Last line\n".utf8)
            .write(to: music.appendingPathComponent("Web Album/01.lrc"))
        try make("Apple Album/apple.m4a", "alac", frequency: 660,
                 ["title": "Apple Lossless Song", "artist": "Mac Artist", "album": "Apple Album", "date": "2001", "track": "1"])
        try make("Hostile/hostile.flac", "flac", frequency: 880,
                 ["title": BrowserTests.hostileTitle, "artist": "Hostile Artist", "album": BrowserTests.hostileAlbum])
        for name in ["flac-vorbis-cover.flac", "m4a-alac.m4a"] {
            try fm.copyItem(at: ChildProcess.repo.appendingPathComponent("Fixtures/\(name)"), to: music.appendingPathComponent("Fixtures/\(name)"))
        }
        let scan = try ChildProcess.run(ChildProcess.mlib.path, ["scan", "-q", "--library", library, music.path])
        guard scan.status == 0 else { throw TestFailure("mlib scan: \(scan.stderr)") }
        let add = try ChildProcess.run(ChildProcess.mlib.path, ["user", "add", BrowserTests.user, "--admin", "--password", BrowserTests.password,
                                                                "--library", library, "--key-file", keyFile])
        guard add.status == 0 else { throw TestFailure("mlib user add: \(add.stderr)") }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// `mlib serve` with the web app, the API and the MPD port (the server's player on the null sink), both on
/// port 0: the ports come from its "mlib: serving …" lines.
final class BrowserServe: @unchecked Sendable {
    let process: SpawnedProcess
    let httpPort: Int
    let mpdPort: Int

    init(library: BrowserLibrary) throws {
        process = try SpawnedProcess(ChildProcess.mlib.path, ["serve", "--library", library.library, "--port", "0", "--sink", "null",
                                                              "--http", "127.0.0.1:0", "--key-file", library.keyFile], stderr: .pipe)
        var text = ""
        while text.components(separatedBy: "\n").filter({ $0.hasPrefix("mlib: serving") }).count < 2 {
            let chunk = process.standardError!.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let lines = text.split(separator: "\n").map(String.init)
        func port(_ word: String) -> Int? {
            lines.first { $0.hasPrefix("mlib: serving") && $0.contains(word) }.flatMap { line in
                line.firstRange(of: /127\.0\.0\.1:([0-9]+)/).flatMap { Int(line[$0].split(separator: ":").last!) }
            }
        }
        guard let http = port("http"), let mpd = port("MPD") else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            throw TestFailure("mlib serve did not start: \(text)")
        }
        httpPort = http
        mpdPort = mpd
    }

    /// SIGTERM; the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
