import Foundation
import TestSupport
import Testing

/// A phone plays a stream at its pace: the API's write timeout (`--http-write-timeout`) is for a client that
/// takes nothing, not for one whose answer takes longer than the timeout to drain from the server's socket.
/// The kernel lets the server write again only once a third of the socket's send buffer is free, so with the
/// server's send buffer capped at 1 MiB (in a network namespace of its own: `VethLab`) a client reading
/// 16 KiB every 64 ms (250 KB/s) leaves the server unable to write for 1.4 s at a time, past a one-second
/// timeout, while it reads all along. It gets its two megabytes (it was dropped after about one before the
/// guard asked the kernel what the client acknowledged); a client that asks for the file and reads nothing
/// still has its connection closed. SQLite only: a server in the namespace cannot reach the test's PostgreSQL
/// server, and the guard is below the store.
@Suite(.serialized, .enabled(if: VethLab.unavailableReason == nil && ChildProcess.exists("ffmpeg") && ChildProcess.exists("curl"),
                             Comment(rawValue: VethLab.unavailableReason ?? "ffmpeg or curl missing (scripts/install-deps.sh)")))
struct SlowStreamTests {
    @Test func aDownloadReadAtItsPaceOutlastsTheWriteTimeoutAndAStalledOneDoesNot() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        // A minute of 44.1 kHz stereo 16-bit: 10.6 MB, more than the socket buffers hold.
        let wav = library.music.appendingPathComponent("long.wav")
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=60", "-ac", "2",
                                                   "-metadata", "title=Long", wav.path])
        try #require(made.status == 0, "\(made.stderr)")
        let scan = try mlib(["scan", "--library", library.library, "-q", library.music.path])
        try #require(scan.status == 0, "\(scan.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int)

        let lab = try VethLab()
        defer { lab.close() }
        try lab.limitSendBuffer(in: lab.server, to: 1 << 20)
        let server = try lab.serve(["serve", "--library", library.library, "--http", "\(lab.serverAddress):0", "--no-mpd",
                                    "--key-file", library.keyFile, "--http-write-timeout", "1"])
        defer { _ = server.stop() }
        // The long song's id, as a client finds it (search3), and its download's path.
        let base = "http://\(lab.serverAddress):\(server.port)/rest"
        let search = try lab.runClient(["curl", "-sS", "\(base)/search3?\(BothServeProcess.auth)&f=json&query=&songCount=500&albumCount=0&artistCount=0"])
        let found = try JSONSerialization.jsonObject(with: Data(search.out.utf8)) as? [String: Any]
        let songs = ((found?["subsonic-response"] as? [String: Any])?["searchResult3"] as? [String: Any])?["song"] as? [[String: Any]] ?? []
        let id = try #require(songs.first { $0["title"] as? String == "Long" }?["id"] as? String, "no song Long in \(search.out.prefix(600))")
        let path = "/rest/download?\(BothServeProcess.auth)&id=\(id)"
        func read(wait: Double, pause: Double, limit: Int) throws -> (bytes: Int, seconds: Double) {
            let run = try PacedReader.read(in: lab, port: server.port, path: path, wait: wait, pause: pause, chunk: 16 << 10, limit: limit)
            #expect(run.ran, "\(run.diagnostics)")
            return (run.bytes, run.seconds)
        }

        // Slowly: 16 KiB every 64 ms for eight seconds.
        let slow = try read(wait: 0, pause: 0.064, limit: 2_000_000)
        #expect(slow.bytes >= 1_990_000, "a slow reader was dropped after \(slow.bytes) bytes, \(slow.seconds) s")

        // Stalled: nothing read for five seconds, then what the buffers held, at once, and the end.
        let stalled = try read(wait: 5, pause: 0, limit: Int.max)
        #expect(stalled.bytes < size, "a stalled client was sent every byte")
        #expect(stalled.seconds < 2, "the connection was still open: \(stalled.seconds) s to its end")
        #expect(server.stop() == 0)
    }
}
