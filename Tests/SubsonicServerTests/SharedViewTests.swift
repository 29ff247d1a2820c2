import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// `mlib serve` with the MPD port and `--http`: one in-memory view of the library for both servers, so a
/// scan either of them runs is in the other's answers as soon as the scan is over — not at the other
/// view's next look at the store — and the library is held in memory once.
@Suite(.serialized, .enabled(if: ChildProcess.exists("mpc") && ChildProcess.exists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct SharedViewTests {
    @Test(arguments: Store.available)
    func bothServersAnswerFromOneViewThatEachOnesScanRefreshes(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let server = try BothServeProcess(library: library, environment: ["MLIB_VIEW_LOG": "1"])
        defer { server.stop() }

        // An MPD client's update: the API answers with the new song as soon as `update` is over.
        try addSong(titled: "Zephyrine Overture", at: "New/zephyrine.flac", in: library)
        let update = try server.mpc(["update", "--wait"])
        try #require(update.status == 0, "\(update.stderr)")
        let found = try await songs(server, "search3", "query=Zephyrine&songCount=10")
        #expect(found.map(\.title) == ["Zephyrine Overture"], "search3 right after mpc update: \(found)")
        if let id = found.first?.id {
            let song = try await json(server, "getSong", "id=\(id)")
            #expect((song["song"] as? [String: Any])?["title"] as? String == "Zephyrine Overture")
            #expect((song["song"] as? [String: Any])?["path"] as? String == "New/zephyrine.flac")
        }

        // A phone's startScan: MPD's database has the new song as soon as the scan status says it is over.
        try addSong(titled: "Quillwort Etude", at: "New/quillwort.flac", in: library)
        let started = try await json(server, "startScan")
        #expect((started["scanStatus"] as? [String: Any]) != nil, "\(started)")
        var scanning = true
        for _ in 0..<600 where scanning {
            let status = try await json(server, "getScanStatus")
            scanning = (status["scanStatus"] as? [String: Any])?["scanning"] as? Bool ?? true
            if scanning { try await Task.sleep(for: .milliseconds(20)) }
        }
        try #require(!scanning, "startScan did not end within 12 s")
        let find = try server.mpc(["-f", "%file%", "find", "title", "Quillwort Etude"])
        #expect(find.out == "New/quillwort.flac\n", "mpc find right after the scan: \(find.out) \(find.stderr)")
        #expect(try await songs(server, "search3", "query=Quillwort").count == 1)

        #expect(server.stop() == 0, "both stop cleanly on SIGTERM")
        // One view built, at start-up, for both (each server built its own before); none later. (Its line
        // may come after the "serving" lines: the servers listen while it is built, issue 44.)
        let rest = String(decoding: server.process.standardError!.readDataToEndOfFile(), as: UTF8.self)
        let whole = server.startLines + rest.split(separator: "\n").map(String.init)
        #expect(whole.filter { $0.hasPrefix("mlib: view built:") }.count == 1, "views built: \(whole)")
    }

    /// A one-second FLAC tagged with `title`, at `relativePath` under the library's music folder.
    private func addSong(titled title: String, at relativePath: String, in library: TestLibrary) throws {
        let file = library.music.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                                                   "-metadata", "title=\(title)", file.path])
        guard made.status == 0 else { throw TestFailure("ffmpeg: \(made.stderr)") }
    }

    private func json(_ server: BothServeProcess, _ method: String, _ query: String = "") async throws -> [String: Any] {
        let answer = try await http("\(server.base)/\(method)?\(BothServeProcess.auth)&f=json&\(query)")
        guard let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
              let response = object["subsonic-response"] as? [String: Any], response["status"] as? String == "ok" else {
            throw TestFailure("\(method): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return response
    }

    private func songs(_ server: BothServeProcess, _ method: String, _ query: String) async throws -> [(id: String, title: String)] {
        let response = try await json(server, method, query)
        let list = (response["searchResult3"] as? [String: Any])?["song"] as? [[String: Any]] ?? []
        return list.map { ($0["id"] as? String ?? "", $0["title"] as? String ?? "") }
    }
}
