import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PostgresTestServer
import TestSupport
import Testing

enum Paths {
    static let repo = ChildProcess.repo
    static let fixtures = repo.appendingPathComponent("Fixtures")
    static let openAPI = repo.appendingPathComponent("Tests/SubsonicServerTests/Fixtures/openapi")
    static let client = repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/subsonic_client.py")
    static var mlib: URL { ChildProcess.mlib }
}

/// Whether python3 has py-sonic and openapi-schema-validator (scripts/install-deps.sh installs both).
let pythonClientInstalled: Bool = {
    (try? ChildProcess.run("python3", ["-c", "import libsonic, openapi_schema_validator"]).status) == 0
}()

@discardableResult
func mlib(_ arguments: [String], input: String? = nil) throws -> ChildProcess.Output {
    try ChildProcess.run(Paths.mlib.path, arguments)
}

/// A music folder (fixture files in three folders, one with a cover.jpg made by ffmpeg), scanned into a
/// library on SQLite or PostgreSQL, with an admin user and a smart playlist; its key file in the folder.
struct TestLibrary {
    let directory: URL
    var music: URL { directory.appendingPathComponent("music") }
    var keyFile: String { directory.appendingPathComponent("users-key").path }
    let library: String
    static let user = "alice", password = "s3same ünïcode"
    static let smartPlaylist = "Rated"

    init(library locator: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-subsonic-\(UUID().uuidString)")
        library = locator ?? directory.appendingPathComponent("library.sqlite").path
        let fm = FileManager.default
        for sub in ["Album1", "Other", "Other/Deeper"] {
            try fm.createDirectory(at: music.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let copies = [("flac-vorbis-cover.flac", "Album1"), ("mp3-id3v24.mp3", "Album1"), ("ogg-vorbis.ogg", "Other"),
                      ("m4a-aac-cover.m4a", "Other/Deeper"), ("opus.opus", ""), ("wav-riff-info.wav", "Other")]
        for (name, sub) in copies where fm.fileExists(atPath: Paths.fixtures.appendingPathComponent(name).path) {
            try fm.copyItem(at: Paths.fixtures.appendingPathComponent(name),
                            to: music.appendingPathComponent(sub.isEmpty ? name : "\(sub)/\(name)"))
        }
        let cover = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=32x32", "-frames:v", "1",
                                                    music.appendingPathComponent("Other/cover.jpg").path])
        guard cover.status == 0 else { throw TestFailure("ffmpeg: \(cover.stderr)") }
        let scan = try mlib(["scan", "--library", library, "-q", music.path])
        guard scan.status == 0 else { throw TestFailure("mlib scan: \(scan.stderr)") }
        // The household's admin (scans are for admins); the tests of an ordinary user's rights add bob.
        let add = try mlib(["user", "add", Self.user, "--admin", "--password", Self.password, "--library", library, "--key-file", keyFile])
        guard add.status == 0 else { throw TestFailure("mlib user add: \(add.stderr)") }
        let smart = try mlib(["playlist", "smart", Self.smartPlaylist, "rating >= 3", "--library", library])
        guard smart.status == 0 else { throw TestFailure("mlib playlist smart: \(smart.stderr)") }
    }

    /// The same on `store`: SQLite in the test's own folder (removed with it), or a new PostgreSQL database.
    init(on store: Store) throws {
        try self.init(library: store == .sqlite ? nil : try store.newLocator(sqlitePath: ""))
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// `mlib serve --http 127.0.0.1:0 --no-mpd`; `stop()` sends SIGTERM and waits.
final class HTTPServeProcess: @unchecked Sendable {
    private let child: ServeChild
    var process: SpawnedProcess { child.process }
    var port: Int { child.port }

    init(library: TestLibrary, extra: [String] = []) throws {
        child = try ServeChild(mlib: Paths.mlib, arguments: ["serve", "--library", library.library, "--http", "127.0.0.1:0", "--no-mpd",
                                                             "--key-file", library.keyFile] + extra)
    }

    var base: String { "http://127.0.0.1:\(port)/rest" }

    /// SIGTERM; returns the exit status.
    @discardableResult
    func stop() -> Int32 { child.stop() }
}

/// One HTTP request; returns status, headers (lower-case names) and body.
func http(_ url: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) async throws
    -> (status: Int, headers: [String: String], body: Data) {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = response as! HTTPURLResponse
    var fields: [String: String] = [:]
    for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
    return (http.statusCode, fields, data)
}

/// `mlib serve --port 0 --sink null --http 127.0.0.1:0`: the MPD server and the API in one process. Its
/// start-up lines (standard error up to both "mlib: serving …" lines) are kept: with `MLIB_VIEW_LOG` in
/// `environment`, they say how many in-memory views were built. `stop()` sends SIGTERM and waits.
final class BothServeProcess: @unchecked Sendable {
    let process: SpawnedProcess
    let startLines: [String]
    let httpPort: Int
    let mpdPort: Int

    init(library: TestLibrary, environment: [String: String] = [:], extra: [String] = []) throws {
        process = try SpawnedProcess(Paths.mlib.path, ["serve", "--library", library.library, "--port", "0", "--sink", "null",
                                                       "--http", "127.0.0.1:0", "--key-file", library.keyFile] + extra,
                                     environment: environment, stderr: .pipe)
        var text = ""
        while text.components(separatedBy: "\n").filter({ $0.hasPrefix("mlib: serving") }).count < 2 {
            let chunk = process.standardError!.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let lines = text.split(separator: "\n").map(String.init)
        startLines = lines
        func port(_ prefix: String) -> Int? {
            lines.first { $0.hasPrefix(prefix) }.flatMap { line in
                line.firstRange(of: /127\.0\.0\.1:([0-9]+)/).flatMap { Int(line[$0].split(separator: ":").last!) }
            }
        }
        guard let http = port("mlib: serving the Subsonic API"), let mpd = port("mlib: serving MPD") else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            throw TestFailure("mlib serve with both ports did not start: \(text)")
        }
        httpPort = http
        mpdPort = mpd
    }

    var base: String { "http://127.0.0.1:\(httpPort)/rest" }

    /// The API's authentication parameters for `TestLibrary.user` (`p=enc:` hex).
    static var auth: String {
        "u=\(TestLibrary.user)&p=enc:\(Array(TestLibrary.password.utf8).map { String(format: "%02x", $0) }.joined())&c=test&v=1.16.1"
    }

    /// Runs mpc against the MPD port.
    func mpc(_ arguments: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run("mpc", ["-h", "127.0.0.1", "-p", String(mpdPort)] + arguments)
    }

    /// SIGTERM; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Runs `Scripts/NAME` (a client replay) against `server` as `TestLibrary.user`, with `extra` arguments after
/// the port, user and password; its JSON summary, or nil after recording the script's failure.
func replayClient<Summary: Decodable>(_ name: String, _ server: HTTPServeProcess, extra: [String] = [], as type: Summary.Type) throws -> Summary? {
    let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/\(name)").path,
                                               String(server.port), TestLibrary.user, TestLibrary.password] + extra)
    #expect(run.status == 0, "\(name): \(run.stderr)")
    guard run.status == 0 else { return nil }
    return try JSONDecoder().decode(type, from: run.stdout)
}

/// The paths `mlib ls` lists in `library`, relative to its music folder, sorted: what a client's sync must see.
func listedPaths(_ library: TestLibrary) throws -> [String] {
    let listed = try mlib(["ls", "--paths", "--library", library.library])
    return listed.out.split(separator: "\n").map { String($0.dropFirst(library.music.path.count + 1)) }.sorted()
}
