import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Whether python3 has subsonic-connector (scripts/install-deps.sh installs it).
let subsonicConnectorInstalled: Bool = {
    (try? ChildProcess.run("python3", ["-c", "import subsonic_connector.connector"]).status) == 0
}()

/// subsonic-connector (PyPI, over py-sonic) runs its whole public API against mlib (`Scripts/connector_sweep.py`:
/// every public method of its `Connector`, with tokens and with the legacy `enc:` password (bob's, ASCII: see the script), every getter of what
/// each returns, the stream, cover and download URLs fetched) without an exception, on both stores; it sees
/// every song `mlib ls` lists and the radio station an admin made.
@Suite(.serialized, .enabled(if: subsonicConnectorInstalled, "python3 with subsonic-connector missing (scripts/install-deps.sh)"))
struct SubsonicConnectorTests {
    struct Summary: Decodable {
        var called: [String]
        var `public`: [String]
        var getters: Int
        var songs: [String]
        var stations: [String]
    }

    @Test(arguments: Store.available)
    func itsWholePublicAPIRunsWithoutAnException(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        try #require(try mlib(["user", "add", "bob", "--password", "bobpass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let made = try await http("\(server.base)/createInternetRadioStation?\(BothServeProcess.auth)&f=json&name=Jazz&streamUrl=http://radio.example.org/jazz")
        #expect(String(decoding: made.body, as: UTF8.self).contains("\"status\":\"ok\""))
        guard let summary = try replayClient("connector_sweep.py", server, extra: ["bob", "bobpass"], as: Summary.self) else { return }
        #expect(summary.called == summary.public, "every public method of Connector is called")
        #expect(summary.public.count >= 25 && summary.getters > 50, "\(summary.public.count) methods, \(summary.getters) getters")
        #expect(summary.songs == (try listedPaths(library)))
        #expect(summary.stations == ["Jazz"])
        #expect(server.stop() == 0)
    }
}
