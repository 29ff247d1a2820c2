import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 44: one item changed costs work for that item, not for the library. `mlib serve` with both servers
/// (one view), a rating set by a phone: the view is patched (`view patched: 1 items`), the API's catalog is
/// kept (`catalog kept`, no `catalog derived` after start-up), and MPD's `listallinfo` keeps every song block
/// but the rated song's (`song blocks kept: N-1 of N`). Counted from the server's `MLIB_VIEW_LOG` lines,
/// not timed; and both servers answer with the new rating.
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

        #expect(server.stop() == 0)
        let log = String(decoding: server.process.standardError!.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map(String.init).filter { $0.hasPrefix("mlib: view") }
        #expect(log.contains { $0.hasPrefix("mlib: view patched: 1 items") }, "\(log)")
        #expect(!log.contains { $0.hasPrefix("mlib: view refreshed") || $0.hasPrefix("mlib: view rebuilt") }, "\(log)")
        #expect(log.contains { $0.hasPrefix("mlib: view catalog kept: 1 items changed") }, "\(log)")
        #expect(!log.contains { $0.hasPrefix("mlib: view catalog derived") }, "no catalog derived after start-up: \(log)")
        #expect(log.contains("mlib: view song blocks kept: \(songs.count - 1) of \(songs.count)"), "\(log)")
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
