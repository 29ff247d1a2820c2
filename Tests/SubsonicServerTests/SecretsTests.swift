import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PostgresTestServer
import TestSupport
import Testing

/// Nothing secret in what a server writes or answers (issue 37): after authenticated and failed requests
/// of every kind (clear, `enc:`, token and salt, API key; right and wrong), neither the server's standard
/// error (its whole log, view refreshes included) nor any answer carries a password, token, salt or key.
/// And `mlib user add --password` says that the option shows in ps.
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct SecretsTests {
    static func md5(_ text: String) throws -> String {
        let out = try ChildProcess.run("python3", ["-c", "import hashlib, sys; print(hashlib.md5(sys.argv[1].encode()).hexdigest())", text])
        return String(decoding: out.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: Store.available)
    func noSecretInTheLogOrInAnyAnswer(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let password = "pw-Zq7xK-secret", wrong = "pw-Wr0ng-Vx9q", salt = "salt-Qm4Ty8"
        let add = try mlib(["user", "add", "bob", "--password", password, "--library", library.library, "--key-file", library.keyFile])
        try #require(add.status == 0)
        let stderr = add.stderr
        #expect(stderr.contains("ps") && stderr.contains("standard input"), "user add --password warns that ps shows it: \(stderr)")
        #expect(!stderr.contains(password))
        let key = try #require(String(decoding: add.stdout, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("apiKey=") }.map { String($0.dropFirst(7)) })
        let token = try Self.md5(password + salt), wrongToken = try Self.md5(wrong + salt)
        let hex = Array(password.utf8).map { String(format: "%02x", $0) }.joined()
        let secrets = [password, wrong, hex, token, wrongToken, salt, key, "wrongkey-Hh3Lp0"]

        let log = library.directory.appendingPathComponent("serve.log").path
        let serve = try SpawnedProcess(Paths.mlib.path, ["serve", "--library", library.library, "--http", "127.0.0.1:0", "--no-mpd",
                                                         "--key-file", library.keyFile],
                                       environment: ["MLIB_VIEW_LOG": "1"], stderr: .file(log))
        defer { if serve.isRunning { serve.terminate() }; serve.waitUntilExit() }
        var port: Int?
        for _ in 0..<100 where port == nil {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.contains("serving the Subsonic API") }),
               let match = line.firstRange(of: /127\.0\.0\.1:([0-9]+)/) {
                port = Int(line[match].split(separator: ":").last!)
            }
            if port == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let base = "http://127.0.0.1:\(try #require(port, "the server did not start"))/rest"
        let auths = ["u=bob&p=\(password)", "u=bob&p=enc:\(hex)", "u=bob&t=\(token)&s=\(salt)", "apiKey=\(key)",
                     "u=bob&p=\(wrong)", "u=nobody&p=\(password)", "u=bob&t=\(wrongToken)&s=\(salt)", "apiKey=wrongkey-Hh3Lp0",
                     "u=bob&apiKey=\(key)", "u=bob&p=\(password)&t=\(token)&s=\(salt)"]
        var answers: [String] = []
        for auth in auths {
            for call in ["ping", "getSong?id=999999", "getPlaylist?id=12345", "getCoverArt?id=nothing", "stream?id=nothing",
                         "createPlaylist?name=", "savePlayQueue?id=nothing", "nosuchmethod", "getUser?username=alice", "setRating?id=1&rating=9"] {
                let joiner = call.contains("?") ? "&" : "?"
                for format in ["json", "xml"] {
                    let answer = try await http("\(base)/\(call)\(joiner)\(auth)&c=t&v=1.16.1&f=\(format)")
                    answers.append(String(decoding: answer.body, as: UTF8.self))
                }
            }
            // The same as a form POST.
            let posted = try await http("\(base)/ping", method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                        body: Data("\(auth)&c=t&v=1.16.1&f=json".utf8))
            answers.append(String(decoding: posted.body, as: UTF8.self))
        }
        // A store's refusal (a position outside the playlist) says what, not where the library lives.
        let mine = try await http("\(base)/createPlaylist?name=Mine&\(auths[0])&c=t&v=1.16.1&f=json")
        let id = try #require(String(decoding: mine.body, as: UTF8.self).firstMatch(of: /"id":"([0-9]+)"/)?.1)
        let refused = String(decoding: try await http("\(base)/updatePlaylist?playlistId=\(id)&songIndexToRemove=5&\(auths[0])&c=t&v=1.16.1&f=json").body,
                             as: UTF8.self)
        let message = RightsTests.error(Data(refused.utf8))?.message ?? ""
        #expect(message.hasPrefix("playlist \"Mine\" has no position 5") && !refused.contains(library.library), "\(refused)")
        serve.terminate()
        serve.waitUntilExit()
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(logged.contains("serving the Subsonic API"), "the log is the server's: \(logged)")
        for secret in secrets {
            #expect(!logged.contains(secret), "the server's log holds \(secret): \(logged)")
            let leaking = answers.filter { $0.contains(secret) }
            #expect(leaking.isEmpty, "answers hold \(secret): \(leaking.prefix(3))")
        }
    }
}
