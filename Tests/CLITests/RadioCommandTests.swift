import Foundation
import Testing
import TestSupport

/// `mlib radio` (issue 42): the stations Subsonic clients are offered, edited from the CLI. SQLite only: the
/// command is a thin front over `Library+RadioStations`, whose store and rights tests run on both stores
/// (LibraryTests.RadioStationsAndSharesTests).
struct RadioCommandTests {
    @Test func stationsAreAddedListedChangedAndRemoved() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-radio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("library.sqlite").path
        #expect(try CLI.run(["scan", "-q", "--library", library, directory.path]).status == 0)
        let added = try CLI.run(["radio", "add", "Jazz 24", "https://live.example.org/jazz24.mp3", "--home-page", "https://example.org", "--library", library])
        #expect(added.status == 0 && added.out == "added station 1\n", "\(added.out)\(added.stderr)")
        #expect(try CLI.run(["radio", "add", "All news", "http://live.example.org/news", "--library", library]).status == 0)
        #expect(try CLI.run(["radio", "--library", library]).out == "2\tAll news\thttp://live.example.org/news\n1\tJazz 24\thttps://live.example.org/jazz24.mp3\thttps://example.org\n")
        // --json, as scripts read it: by name, a missing home page null.
        let listed = try CLI.run(["radio", "list", "--json", "--library", library])
        let stations = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]], "\(listed.out)")
        #expect(stations.map { $0["name"] as? String } == ["All news", "Jazz 24"])
        #expect(stations.map { $0["id"] as? Int } == [2, 1])
        #expect(stations[0]["homePageURL"] is NSNull && stations[1]["homePageURL"] as? String == "https://example.org")
        #expect(stations[1]["streamURL"] as? String == "https://live.example.org/jazz24.mp3" && stations[1]["created"] is Double)
        let refused = try CLI.run(["radio", "add", "Local", "file:///etc/passwd", "--library", library])
        #expect(refused.status == 1 && refused.stderr.contains("not an http or https URL"), "\(refused.stderr)")
        #expect(try CLI.run(["radio", "set", "1", "Jazz", "https://live.example.org/jazz.aac", "--library", library]).status == 0)
        #expect(try CLI.run(["radio", "list", "--library", library]).out.contains("1\tJazz\thttps://live.example.org/jazz.aac\n"))
        #expect(try CLI.run(["radio", "remove", "2", "--library", library]).status == 0)
        let missing = try CLI.run(["radio", "remove", "2", "--library", library])
        #expect(missing.status == 1 && missing.stderr.contains("Radio station 2 not found"), "\(missing.stderr)")
        #expect(try CLI.run(["radio", "set", "x", "A", "http://a.example.org", "--library", library]).status == 2, "an id that is no number is a usage error")
        #expect(try CLI.run(["radio", "list", "--library", library]).out == "1\tJazz\thttps://live.example.org/jazz.aac\n")
    }
}
