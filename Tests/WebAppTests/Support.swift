import Foundation
import PostgresTestServer
import TestSupport
import Testing

@discardableResult
func mlib(_ arguments: [String]) throws -> ChildProcess.Output {
    try ChildProcess.run(ChildProcess.mlib.path, arguments)
}

/// A music folder scanned into a library on SQLite or PostgreSQL: two fixture files and a FLAC whose
/// title is markup (`WebLibrary.markupTitle`); an admin (alice) and an ordinary user (bob).
struct WebLibrary {
    let directory: URL
    var music: URL { directory.appendingPathComponent("music") }
    var keyFile: String { directory.appendingPathComponent("users-key").path }
    let library: String
    static let admin = "alice", adminPassword = "s3same ünïcode"
    static let user = "bob", userPassword = "bob's secret"
    static let markupTitle = "<script>alert(1)</script> & co"

    /// `longTones`: also two 30 s tones in `Long/` (a player test's songs that do not end during the test).
    init(on store: Store = .sqlite, longTones: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-web-\(UUID().uuidString)")
        library = store == .sqlite ? directory.appendingPathComponent("library.sqlite").path : try store.newLocator(sqlitePath: "")
        let fm = FileManager.default
        try fm.createDirectory(at: music.appendingPathComponent("Album"), withIntermediateDirectories: true)
        let fixtures = ChildProcess.repo.appendingPathComponent("Fixtures")
        for name in ["flac-vorbis-cover.flac", "mp3-id3v24.mp3"] {
            try fm.copyItem(at: fixtures.appendingPathComponent(name), to: music.appendingPathComponent("Album/\(name)"))
        }
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-metadata",
                                                   "title=\(Self.markupTitle)", "-metadata", "artist=Markup Artist", "-metadata", "album=Markup",
                                                   music.appendingPathComponent("markup.flac").path])
        guard made.status == 0 else { throw TestFailure("ffmpeg: \(made.stderr)") }
        if longTones {
            try fm.createDirectory(at: music.appendingPathComponent("Long"), withIntermediateDirectories: true)
            for (n, frequency) in [(1, 330), (2, 550)] {
                let tone = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=\(frequency):duration=30",
                                                           "-metadata", "title=Tone \(n)", music.appendingPathComponent("Long/tone\(n).flac").path])
                guard tone.status == 0 else { throw TestFailure("ffmpeg: \(tone.stderr)") }
            }
        }
        for step in [["scan", "--library", library, "-q", music.path],
                     ["user", "add", Self.admin, "--admin", "--password", Self.adminPassword, "--library", library, "--key-file", keyFile],
                     ["user", "add", Self.user, "--password", Self.userPassword, "--library", library, "--key-file", keyFile]] {
            let run = try mlib(step)
            guard run.status == 0 else { throw TestFailure("mlib \(step.joined(separator: " ")): \(run.stderr)") }
        }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// `mlib serve --http 127.0.0.1:0` (with `--no-mpd` unless `player`: then an MPD port too, on a null sink).
final class WebServe: @unchecked Sendable {
    let process: SpawnedProcess
    let httpPort: Int
    let mpdPort: Int?

    init(_ library: WebLibrary, player: Bool = false, extra: [String] = []) throws {
        let arguments = ["serve", "--library", library.library, "--http", "127.0.0.1:0", "--key-file", library.keyFile]
            + (player ? ["--port", "0", "--sink", "null"] : ["--no-mpd"]) + extra
        process = try SpawnedProcess(ChildProcess.mlib.path, arguments, stderr: .pipe)
        var text = ""
        while text.components(separatedBy: "\n").filter({ $0.hasPrefix("mlib: serving") }).count < (player ? 2 : 1) {
            let chunk = process.standardError!.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        func port(_ prefix: String) -> Int? {
            text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { line in
                line.firstRange(of: /127\.0\.0\.1:([0-9]+)/).flatMap { Int(line[$0].split(separator: ":").last!) }
            }
        }
        guard let http = port("mlib: serving the Subsonic API") else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            throw TestFailure("mlib serve did not start: \(text)")
        }
        httpPort = http
        mpdPort = port("mlib: serving MPD")
    }

    var base: String { "http://127.0.0.1:\(httpPort)" }

    func mpc(_ arguments: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run("mpc", ["-h", "127.0.0.1", "-p", String(mpdPort ?? 0)] + arguments)
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// An HTTP answer as curl saw it (no decompression, no cookie handling: the test sets every header).
struct Reply {
    var status: Int
    /// Lower-case names; a name sent twice keeps the last.
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
}

/// One request through curl.
func fetch(_ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil) throws -> Reply {
    var arguments = ["-s", "-S", "-i", "-X", method, url, "--max-time", "20"]
    for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
    if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
    let run = try ChildProcess.run("curl", arguments)
    guard run.status == 0 else { throw TestFailure("curl \(method) \(url): \(run.stderr)") }
    let data = run.stdout
    guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw TestFailure("curl: no header end in \(String(decoding: data, as: UTF8.self))") }
    let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
    var fields: [String: String] = [:]
    for line in head.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Reply(status: status, headers: fields, body: Data(data[split.upperBound...]))
}

/// A logged-in browser: its session cookie and CSRF token, sent as a page of the server's origin sends them.
struct Browser {
    let server: WebServe
    let cookie: String
    let csrf: String

    /// Logs in as `user`; fails the test unless the login succeeds.
    init(_ server: WebServe, user: String = WebLibrary.admin, password: String = WebLibrary.adminPassword) throws {
        self.server = server
        let reply = try fetch("POST", server.base + "/api/login", body: Self.login(user, password))
        guard reply.status == 200, let setCookie = reply.headers["set-cookie"], let csrf = reply.json["csrf"] as? String else {
            throw TestFailure("login as \(user): \(reply.status) \(reply.text)")
        }
        cookie = String(setCookie.split(separator: ";")[0])
        self.csrf = csrf
    }

    static func login(_ user: String, _ password: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: ["user": user, "password": password]), as: UTF8.self)
    }

    /// A request with the cookie; a state change (not GET) with the CSRF token and the server's own Origin
    /// unless `csrf` is false.
    func call(_ method: String, _ path: String, body: String? = nil, csrf: Bool = true, headers: [String: String] = [:]) throws -> Reply {
        var fields = ["Cookie": cookie]
        if method != "GET", csrf {
            fields["X-CSRF-Token"] = self.csrf
            fields["Origin"] = server.base
        }
        fields.merge(headers) { _, new in new }
        return try fetch(method, server.base + path, headers: fields, body: body)
    }
}

/// Polls `condition` every 50 ms until it holds or `seconds` pass.
func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return try condition()
}
