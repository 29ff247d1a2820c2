import Crypto
import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// `mlib serve --dlna` in one network namespace, async-upnp-client (PyPI; Home Assistant's DLNA library) in
/// another, joined by a veth pair: the client finds the server by SSDP, browses every container (paged),
/// streams a track (whole, by Range, by HEAD), fetches art, searches, is told 701 for an object that is not
/// there, and — subscribed — sees SystemUpdateID change after a file is added and scanned. Counts are held
/// to `mlib ls` over the same library. On both stores.
@Suite(.serialized,
       .enabled(if: VethLab.unavailableReason == nil, Comment(rawValue: VethLab.unavailableReason ?? "")),
       .enabled(if: (try? ChildProcess.run("python3", ["-c", "import async_upnp_client"]).status) == 0,
                "async-upnp-client missing (scripts/install-deps.sh)"))
struct DLNAClientTests {
    struct Report: Decodable {
        struct Found: Decodable { var st: String?; var location: String? }
        struct Container: Decodable { var title: String; var childCount: Int; var children: Int; var total: Int; var `class`: String }
        struct Item: Decodable { var title: String; var parent: String; var url: String; var size: Int; var protocolInfo: String; var art: String? }
        struct Stream: Decodable { var url: String; var status: Int; var sha256: String; var length: Int; var contentFeatures: String?; var transferMode: String? }
        struct Range: Decodable { var status: Int; var contentRange: String?; var equal: Bool }
        struct Head: Decodable { var status: Int; var length: String? }
        struct Art: Decodable { var url: String; var status: Int; var type: String?; var length: Int }
        struct Events: Decodable { var before: Int?; var after: Int? }
        var discovered: [Found]
        var all: [String]
        var friendlyName: String?
        var isAuthorized: Int?
        var containers: [String: Container]
        var items: [String: Item]
        var missingError: Int?
        var stream: Stream?
        var range: Range?
        var head: Head?
        var art: [Art]
        var searches: [String: [String]]
        var events: Events?
    }

    static let fixtures = ["mp3-id3v1.mp3", "mp3-id3v23.mp3", "mp3-id3v24.mp3", "mp3-notags.mp3", "flac-vorbis-cover.flac",
                           "m4a-aac-cover.m4a", "ogg-vorbis.ogg", "wav-riff-info.wav", "video-h264-aac.mp4"]
    static let search = #"upnp:class derivedfrom "object.item.audioItem" and (dc:title contains "a" or upnp:album contains "pressing")"#

    @Test(arguments: Store.available)
    func aControlPointInAnotherNamespaceBrowsesStreamsSearchesAndHearsChanges(_ store: Store) async throws {
        var scratch = try ScratchLibrary("mlib-dlna")
        defer { scratch.remove() }
        let base = scratch.base
        for (i, name) in Self.fixtures.enumerated() { try scratch.copyFixture(name, as: i % 3 == 0 ? "sub/\(name)" : name) }
        scratch.environment["MLIB_LIBRARY"] = try store.newLocator(sqlitePath: scratch.sqliteFile.path)
        let environment = scratch.environment
        func mlib(_ arguments: [String]) throws -> String { try scratch.mlib(arguments).out }
        try scratch.scan()
        // A static playlist and a smart one (evaluated when listed).
        _ = try mlib(["playlist", "create", "Road"])
        _ = try mlib(["playlist", "add", "Road", "genre:rock", "--sort", "title"])
        // An entry twice: listed once (object ids are unique), and the count says so.
        _ = try mlib(["playlist", "add", "Road", "genre:rock", "--sort", "title", "--limit", "1"])
        _ = try mlib(["playlist", "smart", "Mp3s", #"path ENDSWITH ".mp3""#])
        let roadCount = try mlib(["ls", "--count", "genre:rock"]).trimmingCharacters(in: .whitespacesAndNewlines)

        let lab = try VethLab()
        defer { lab.close() }
        let server = try lab.serveDLNA(environment: environment, ["--dlna-name", "Living room test"])
        defer { server.stop() }

        let marker = base.appendingPathComponent("subscribed").path
        let script = ChildProcess.repo.appendingPathComponent("Tests/DLNAServerTests/Scripts/dlna_client.py").path
        let client = try SpawnedProcess(VethLab.ip, lab.exec(in: lab.client, ["python3", script, "--source", lab.clientAddress, "--page", "3",
                                                                             "--search", Self.search, "--events", marker]),
                                        stdout: .pipe, stderr: .pipe)
        // Once the client has walked the tree and subscribed, a file is added and scanned.
        let subscribed = Poll.until(timeout: 120) { FileManager.default.fileExists(atPath: marker) || !client.isRunning }
        if subscribed && client.isRunning {
            try scratch.copyFixture("m4a-alac.m4a", as: "sub/added.m4a")
            try scratch.scan()
        }
        let (out, err, timedOut) = client.readToEnd(killingAfter: 90)
        #expect(!timedOut && client.terminationStatus == 0, "\(String(decoding: err, as: UTF8.self))")
        let report = try JSONDecoder().decode(Report.self, from: out)

        // SSDP: found at the server's address, every target answered to ssdp:all.
        let location = "http://\(lab.serverAddress):\(server.port)/description.xml"
        #expect(report.discovered.map(\.location) == [location])
        #expect(Set(report.all).isSuperset(of: ["upnp:rootdevice", "urn:schemas-upnp-org:device:MediaServer:1",
                                                "urn:schemas-upnp-org:service:ContentDirectory:1", "urn:schemas-upnp-org:service:ConnectionManager:1",
                                                "urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1"]))
        #expect(report.friendlyName == "Living room test")
        #expect(report.isAuthorized == 1)

        // The tree: every container's children as many as it says, all reached by paging.
        let containers = report.containers
        for (id, c) in containers { #expect(c.children == c.total && c.total == c.childCount, "\(id): \(c)") }
        for top in ["0", "1", "2", "3", "1$artists", "1$albumartists", "1$albums", "1$genres", "1$years", "1$all", "1$recent", "1$playlists",
                    "2$all", "2$folders", "2$recent"] {
            #expect(containers[top] != nil, "\(top) not browsed")
        }
        // Held to mlib ls over the same library (as it was when the walk ran: before the file was added).
        let audio = Self.fixtures.count - 1
        #expect(containers["1$all"]?.total == audio)
        #expect(containers["2$all"]?.total == 1)
        func groups(_ kind: String) throws -> [String: [Int]] {
            var result: [String: [Int]] = [:]
            for line in try mlib(["ls", "--group", kind, "-f", "$name|$count", #"mediaType == anyAudio AND NOT path ENDSWITH "added.m4a""#]).split(separator: "\n") {
                let parts = line.split(separator: "|")
                result[String(parts[0]) == "(none)" ? "" : String(parts[0]), default: []].append(Int(parts[1])!)
            }
            return result.mapValues { $0.sorted() }
        }
        func children(of parent: String, unknown: String) -> [String: [Int]] {
            var result: [String: [Int]] = [:]
            for (id, c) in containers where id.hasPrefix(parent + "$") && !id.dropFirst(parent.count + 1).contains("$") {
                result[c.title == unknown ? "" : c.title, default: []].append(c.childCount)
            }
            return result.mapValues { $0.sorted() }
        }
        #expect(children(of: "1$albums", unknown: "[Unknown Album]") == (try groups("albums")))
        var genres = try groups("genres")
        genres[""] = nil   // items without a genre are in no genre container
        #expect(children(of: "1$genres", unknown: "") == genres)
        // Playlists: each lists its items as mlib ls does (a smart one evaluated now).
        let playlists = containers.filter { $0.key.hasPrefix("1$playlists$") }.values.map { ($0.title, $0.childCount) }
        #expect(playlists.sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" } == ["Mp3s 4", "Road \(roadCount)"])
        // Folders hold every item once.
        let folderItems = report.items.keys.filter { $0.hasPrefix("3$") }.count
        #expect(folderItems == Self.fixtures.count)

        // Streams: the bytes are the file's; a Range is honoured; HEAD says the length.
        let stream = try #require(report.stream)
        let id = try #require(stream.url.split(separator: "/").last?.split(separator: ".").first.map(String.init))
        let path = try #require(try mlib(["ls", "-f", "$persistentID|$path"]).split(separator: "\n").first { $0.hasPrefix(id + "|") }?.split(separator: "|").last)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: String(path)))
        #expect(stream.status == 200 && stream.length == bytes.count)
        #expect(stream.sha256 == SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined())
        #expect(stream.contentFeatures?.contains("DLNA.ORG_OP=01") == true && stream.transferMode == "Streaming")
        #expect(report.range?.status == 206 && report.range?.equal == true && report.range?.contentRange == "bytes 100-1099/\(bytes.count)")
        #expect(report.head?.status == 200 && report.head?.length == String(bytes.count))
        // Art: every URL offered answers with a picture.
        #expect(!report.art.isEmpty)
        for art in report.art { #expect(art.status == 200 && art.type?.hasPrefix("image/") == true && art.length > 0, "\(art)") }
        #expect(report.missingError == 701)

        // Search: the same items `mlib ls` finds with the predicate the criteria compile to.
        let expected = try mlib(["ls", "-f", "$title", #"mediaType == anyAudio AND (title CONTAINS[cd] "a" OR albumTitle CONTAINS[cd] "pressing") AND NOT path ENDSWITH "added.m4a""#])
            .split(separator: "\n").map(String.init).sorted()
        #expect(report.searches[Self.search] == expected)

        // Events: the scan that added a file moved SystemUpdateID.
        let events = try #require(report.events)
        #expect(events.before != nil && events.after != nil && events.after != events.before, "\(events)")
        #expect(server.stop() == 0)
    }
}
