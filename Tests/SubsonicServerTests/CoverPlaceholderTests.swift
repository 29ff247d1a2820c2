import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 42: where a client waits for a picture, an existing album or song without art gets a placeholder
/// PNG (600 × 600, or `size`) with status 200, as Navidrome sends: the JSON error mlib answered before left
/// Sublime Music's covers spinning for ever. An unknown id stays error 70. `getAvatar` sends a placeholder
/// for an account (mlib keeps no uploaded avatars) and, to an admin, error 70 for a name that is none (to
/// anyone else the same placeholder, so that it does not say whether the account exists). Through py-sonic
/// (`Scripts/cover_client.py`) and curl, on both stores. The same run checks the chat (`ChatBoard`, in
/// memory): py-sonic's messages, newest first, `since` honoured, another user reads them, a long one refused.
@Suite(.serialized, .enabled(if: pythonClientInstalled && ChildProcess.exists("ffmpeg") && ChildProcess.exists("curl"),
                             "python3 with py-sonic, ffmpeg or curl missing (scripts/install-deps.sh)"))
struct CoverPlaceholderTests {
    struct Summary: Decodable {
        var bareAlbum: [Codable1]
        var bareAlbum64: [Codable1]
        var bareSong300: [Codable1]
        var coveredIsItsOwn: Bool
        var unknownIsNotFound: Bool
        var avatar: [Codable1]
        var unknownAvatarIsNotFound: Bool
        var chat: [[String]]
        var chatSince: [String]
    }

    /// A string or a number of the script's lists.
    enum Codable1: Decodable, Equatable {
        case text(String), number(Int)
        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let number = try? value.decode(Int.self) { self = .number(number) } else { self = .text(try value.decode(String.self)) }
        }
    }

    @Test(arguments: Store.available)
    func coverlessAlbumsAndUsersGetAPlaceholderAndUnknownIdsAnError(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        try DiscoveryCallsTests.plant(in: library)
        #expect(try mlib(["scan", "-q", "--library", library.library, library.music.path]).status == 0)
        try #require(try mlib(["user", "add", "bob", "--password", "bobpass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }

        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/cover_client.py").path,
                                                   String(server.port), TestLibrary.user, TestLibrary.password])
        #expect(run.status == 0, "\(run.stderr)")
        guard run.status == 0 else { return }
        let summary = try JSONDecoder().decode(Summary.self, from: run.stdout)
        #expect(summary.bareAlbum == [.text("image/png"), .number(600), .number(600), .text("89504e470d0a1a0a")])
        #expect(summary.bareAlbum64 == [.text("image/png"), .number(64), .number(64)])
        #expect(summary.bareSong300 == [.text("image/png"), .number(300), .number(300)])
        #expect(summary.coveredIsItsOwn, "an album with art still gets its own picture")
        #expect(summary.unknownIsNotFound, "an unknown id is error 70")
        #expect(summary.avatar == [.text("image/png"), .number(300), .number(300)])
        #expect(summary.unknownAvatarIsNotFound)
        #expect(summary.chat == [[TestLibrary.user, "Grüße — second"], [TestLibrary.user, "first"]])
        #expect(summary.chatSince == ["Grüße — second"])

        // curl, as a browser or a script asks: 200 and a PNG for a song without art; 70 in JSON for an unknown id.
        let base = "http://127.0.0.1:\(server.port)/rest"
        let search = try await http("\(base)/search3?query=Alpha%20One&f=json&\(BothServeProcess.auth)")
        let text = String(decoding: search.body, as: UTF8.self)
        let id = try #require(text.range(of: #""id":"[^"]+""#, options: .regularExpression).map { String(text[$0].dropFirst(6).dropLast()) })
        let file = library.directory.appendingPathComponent("cover.png").path
        let curl = try ChildProcess.run("curl", ["-s", "-o", file, "-w", "%{http_code} %{content_type}",
                                                 "\(base)/getCoverArt?id=\(id)&size=32&\(BothServeProcess.auth)"])
        #expect(String(decoding: curl.stdout, as: UTF8.self) == "200 image/png", "\(curl.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        let unknown = try ChildProcess.run("curl", ["-s", "\(base)/getCoverArt?id=nothing&f=json&\(BothServeProcess.auth)"])
        #expect(String(decoding: unknown.stdout, as: UTF8.self).contains(#""code":70"#))
        // A user who is not an admin gets the same picture for any other name: whether it is an account is not said.
        for name in [TestLibrary.user, "nobody-of-that-name"] {
            let avatar = try await http("\(base)/getAvatar?username=\(name)&u=bob&p=bobpass&c=t&v=1.16.1&f=json")
            #expect(avatar.status == 200 && avatar.headers["content-type"] == "image/png", "\(name): \(String(decoding: avatar.body, as: UTF8.self))")
        }
        let read = try await http("\(base)/getChatMessages?u=bob&p=bobpass&c=t&v=1.16.1&f=json")
        #expect(String(decoding: read.body, as: UTF8.self).contains("Grüße — second"), "bob reads the household's chat")
        let long = try await http("\(base)/addChatMessage?message=\(String(repeating: "a", count: 2_001))&u=bob&p=bobpass&c=t&v=1.16.1&f=json")
        #expect(String(decoding: long.body, as: UTF8.self).contains(#""code":0"#), "a message past 2,000 characters is refused")
        #expect(server.stop() == 0)
    }
}
