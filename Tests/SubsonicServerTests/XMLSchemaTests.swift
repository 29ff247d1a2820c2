import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// XML answers against the Subsonic XSD (Fixtures/xsd; which version and why in Fixtures/README.md), with
/// `xmllint --schema` through `Scripts/xsd_check.py`, which first takes out what OpenSubsonic adds to Subsonic's
/// types: every method mlib answers, asked in XML (`Scripts/xml_sweep.py`) on both stores, with a jukebox (MPD
/// port, null sink) so that `jukeboxControl` answers too. The Amperfy replay and `subsonic_client.py` validate
/// their XML answers the same way. First, the check itself is shown to fail on what the XSD forbids.
@Suite(.serialized, .enabled(if: ChildProcess.exists("python3") && ChildProcess.exists("xmllint"),
                             "python3 or xmllint missing (scripts/install-deps.sh: libxml2-utils)"))
struct XMLSchemaTests {
    static let script = Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/xsd_check.py").path

    @Test func theCheckRefusesWhatTheXSDForbidsAndKeepsOpenSubsonicsAdditions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-xsd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let head = #"<subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" type="mlib" serverVersion="1" openSubsonic="true">"#
        let song = #"id="1" isDir="false" title="T" created="2024-01-02T03:04:05Z""#
        let cases: [(String, String, Bool)] = [
            ("ping", "", true),
            ("opensubsonic-song", #"<song \#(song) mediaType="song" played="2024-01-02T03:04:05Z"><genres name="Rock"/><replayGain trackGain="1.5"/></song>"#, true),
            ("extensions", #"<openSubsonicExtensions name="formPost"><versions>1</versions></openSubsonicExtensions>"#, true),
            ("genre-as-text", #"<genres><genre songCount="1" albumCount="1">Rock</genre></genres>"#, true),
            ("missing-isDir", #"<song id="1" title="T"/>"#, false),
            ("rating-out-of-range", #"<song \#(song) userRating="0"/>"#, false),
            ("date-not-a-date", #"<song id="1" isDir="false" title="T" created="yesterday"/>"#, false),
            ("unknown-attribute", #"<song \#(song) colour="red"/>"#, false),
            ("genre-name-as-attribute", #"<genres><genre value="Rock" songCount="1" albumCount="1"/></genres>"#, false),
            ("search-hit-as-child", #"<searchResult offset="0" totalHits="1"><child \#(song)/></searchResult>"#, false),
        ]
        var paths: [String] = []
        for (name, body, _) in cases {
            let file = directory.appendingPathComponent("\(name).xml")
            try Data((head + body + "</subsonic-response>").utf8).write(to: file)
            paths.append(file.path)
        }
        let run = try ChildProcess.run("python3", [Self.script] + paths)
        #expect(run.status == 1, "some cases are invalid: \(run.out) \(run.stderr)")
        let lines = run.out.split(separator: "\n").map(String.init)
        for ((name, _, valid), path) in zip(cases, paths) {
            let line = lines.first { $0.hasPrefix(path + ":") } ?? ""
            #expect(line.hasSuffix(": valid") == valid, "\(name): \(line)")
        }
    }

    struct Sweep: Decodable {
        var checked: [String]
        var failed: [String: String]
        var errors: [String: String]
        var removed: [String]
    }

    @Test(arguments: Store.available)
    func everyMethodAskedInXMLMatchesTheXSD(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let server = try BothServeProcess(library: library)
        defer { server.stop() }
        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/xml_sweep.py").path,
                                                   String(server.httpPort), TestLibrary.user, TestLibrary.password])
        try #require(run.status == 0, "xml_sweep.py: \(run.stderr)")
        let sweep = try JSONDecoder().decode(Sweep.self, from: run.stdout)
        #expect(sweep.checked.count >= 55, "\(sweep.checked)")
        for (method, problem) in sweep.failed.sorted(by: { $0.key < $1.key }) {
            Issue.record("\(store): \(problem)")
            _ = method
        }
        #expect(sweep.errors.isEmpty, "error answers: \(sweep.errors)")
        print("\(store): \(sweep.checked.count) XML answers valid against the Subsonic XSD; taken out as OpenSubsonic's: \(sweep.removed.joined(separator: " "))")
        #expect(server.stop() == 0)
    }
}
