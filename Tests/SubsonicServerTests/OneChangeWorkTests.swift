import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 44: one item changed costs work for that item, not for the library. `mlib serve` with both servers
/// (one view), a rating set by a phone: the view is patched (`view patched: 1 items`), the API's catalog is
/// kept (`catalog kept`, no `catalog derived` after start-up), and MPD's `listallinfo` keeps every song block
/// but the rated song's (`song blocks kept: N-1 of N`). Counted from the server's `MLIB_VIEW_LOG` lines,
/// not timed; and both servers answer with the new rating. An MPD client idling on `database` is not woken
/// (it would reload its whole library; nothing MPD shows changed), as it is by a scan that adds a song.
@Suite(.serialized, .enabled(if: ChildProcess.exists("mpc") && ChildProcess.exists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct OneChangeWorkTests {
    @Test(arguments: Store.available)
    func aRatingPatchesTheViewAndKeepsTheCatalogAndTheSongBlocks(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let server = try BothServeProcess(library: library, environment: ["MLIB_VIEW_LOG": "1"])
        defer { server.stop() }
        let songs = try listAllInfo(server)   // makes every song's block
        try #require(songs.count >= 4, "listallinfo: \(songs)")

        let idler = try idle(server, seconds: 3)
        let found = try await call(server, "search3", "query=&songCount=100")
        let list = (found["searchResult3"] as? [String: Any])?["song"] as? [[String: Any]] ?? []
        let id = try #require(list.first?["id"] as? String, "\(found)")
        _ = try await call(server, "setRating", "id=\(id)&rating=4")
        // The API answers from the view: the rating shows once the view has the write (a poll: within a second).
        var rating: Int?
        for _ in 0..<100 where rating != 4 {
            let song = try await call(server, "getSong", "id=\(id)")
            rating = (song["song"] as? [String: Any])?["userRating"] as? Int
            if rating != 4 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(rating == 4, "getSong after setRating")
        // After the patch, a walk of MPD's library (its blocks are taken when a walk asks for them).
        var walked = try listAllInfo(server)
        for _ in 0..<50 where walked != songs {
            try await Task.sleep(for: .milliseconds(20))
            walked = try listAllInfo(server)
        }
        #expect(walked == songs, "the rating is in no MPD song block: the same listing")
        let heard = String(decoding: idler.readToEnd(killingAfter: 10).stdout, as: UTF8.self)
        #expect(heard == "nothing\n", "an MPD client idling on database, while a rating was set: \(heard)")

        // A song added and scanned does wake it.
        let woken = try idle(server, seconds: 20)
        let added = library.music.appendingPathComponent("Other/added.flac")
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-metadata", "title=Added", added.path])
        try #require(made.status == 0, "\(made.stderr)")
        try #require(try server.mpc(["update", "--wait"]).status == 0)
        let wakened = String(decoding: woken.readToEnd(killingAfter: 30).stdout, as: UTF8.self)
        #expect(wakened.contains("changed: database"), "after a scan: \(wakened)")

        #expect(server.stop() == 0)
        let whole = server.startLines + String(decoding: server.process.standardError!.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        // Start-up's lines (the view built, its first catalog derived) may come after the "serving" lines: the
        // server listens while they are made (issue 44). The rating's and the scan's follow them.
        let startUp = try #require(whole.firstIndex { $0.hasPrefix("mlib: view catalog derived") }, "\(whole)")
        let log = whole[(startUp + 1)...].filter { $0.hasPrefix("mlib: view") }
        // The rating's lines come before the scan's (an added song: the view derived again from memory).
        let isDerivation = { (line: String) in line.hasPrefix("mlib: view refreshed") || line.hasPrefix("mlib: view rebuilt") }
        let ratingLines = log.prefix { !isDerivation($0) }, scan = log.drop { !isDerivation($0) }
        #expect(ratingLines.contains { $0.hasPrefix("mlib: view patched: 1 items") }, "\(log)")
        #expect(ratingLines.contains { $0.hasPrefix("mlib: view catalog kept: 1 items changed") }, "\(log)")
        #expect(!ratingLines.contains { $0.hasPrefix("mlib: view catalog derived") }, "no catalog derived for a rating: \(log)")
        #expect(ratingLines.contains("mlib: view song blocks kept: \(songs.count - 1) of \(songs.count)"), "\(log)")
        #expect(scan.contains { $0.hasPrefix("mlib: view catalog derived") }, "the added song derives the catalog: \(log)")
    }

    /// A client that sends `idle database` and prints what it hears within `seconds` ("nothing" if nothing).
    private func idle(_ server: BothServeProcess, seconds: Double) throws -> SpawnedProcess {
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            f = s.makefile("rb")
            f.readline()
            s.sendall(b"idle database\\n")
            s.settimeout(float(sys.argv[2]))
            try:
                print(f.readline().decode().strip() or "closed")
            except (socket.timeout, TimeoutError):
                print("nothing")
            """
        let child = try SpawnedProcess("python3", ["-c", script, String(server.mpdPort), String(seconds)], stdout: .pipe, stderr: .pipe)
        Thread.sleep(forTimeInterval: 0.3)   // the idle is registered before the change
        return child
    }

    /// `listallinfo`'s song blocks, each as its lines joined (a raw connection: the answer as sent).
    private func listAllInfo(_ server: BothServeProcess) throws -> [String] {
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            f = s.makefile("rb")
            f.readline()
            s.sendall(b"listallinfo\\n")
            out = []
            while True:
                line = f.readline()
                if not line or line == b"OK\\n" or line.startswith(b"ACK"):
                    out.append(line); break
                out.append(line)
            sys.stdout.buffer.write(b"".join(out))
            """
        let result = try ChildProcess.run("python3", ["-c", script, String(server.mpdPort)])
        guard result.status == 0, result.out.hasSuffix("OK\n") else { throw TestFailure("listallinfo: \(result.out) \(result.stderr)") }
        var blocks: [String] = [], block: String?
        for line in result.out.split(separator: "\n") {
            if line.hasPrefix("file: ") || line.hasPrefix("directory: ") || line == "OK" {
                if let block { blocks.append(block) }
                block = line.hasPrefix("file: ") ? "" : nil
            }
            block? += line + "\n"
        }
        return blocks
    }

    private func call(_ server: BothServeProcess, _ method: String, _ query: String) async throws -> [String: Any] {
        let answer = try await http("\(server.base)/\(method)?\(BothServeProcess.auth)&f=json&\(query)")
        guard let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
              let response = object["subsonic-response"] as? [String: Any], response["status"] as? String == "ok" else {
            throw TestFailure("\(method): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return response
    }
}
