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
@Suite(.serialized, .enabled(if: VethLab.unavailableReason == nil && pythonClientInstalled && ChildProcess.exists("ffmpeg"),
                             Comment(rawValue: VethLab.unavailableReason ?? "python3 with py-sonic or ffmpeg missing (scripts/install-deps.sh)")))
struct SlowStreamTests {
    /// Finds the long WAV song ("Long") by search3, then downloads it over a raw socket after waiting WAIT seconds, 16 KiB
    /// every PAUSE seconds, up to LIMIT bytes of answer; prints the body's bytes and the seconds from the
    /// first read to the end.
    static let reader = """
        import hashlib, json, socket, sys, time, urllib.parse, urllib.request
        host, port, user, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
        wait, pause, limit = float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
        salt = "c0ffee"
        token = hashlib.md5((password + salt).encode()).hexdigest()
        def query(**more):
            return urllib.parse.urlencode({"u": user, "t": token, "s": salt, "v": "1.16.1", "c": "mlib-test", "f": "json", **more})
        found = json.load(urllib.request.urlopen(f"http://{host}:{port}/rest/search3?" + query(query="", songCount=500, albumCount=0, artistCount=0)))
        song = next(s for s in found["subsonic-response"]["searchResult3"]["song"] if s.get("title") == "Long")
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        s.connect((host, port))
        s.sendall(f"GET /rest/download?{query(id=song['id'])} HTTP/1.1\\r\\nHost: {host}\\r\\nConnection: close\\r\\n\\r\\n".encode())
        time.sleep(wait)
        s.settimeout(20)
        data, started = bytearray(), time.monotonic()
        while len(data) < limit:
            chunk = s.recv(16384)
            if not chunk: break
            data += chunk
            time.sleep(pause)
        print(len(data) - (data.find(b"\\r\\n\\r\\n") + 4), round(time.monotonic() - started, 2))
        """

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
        func read(wait: Double, pause: Double, limit: Int) throws -> (bytes: Int, seconds: Double) {
            let run = try lab.runClient(["python3", "-c", Self.reader, lab.serverAddress, String(server.port), TestLibrary.user,
                                         TestLibrary.password, String(wait), String(pause), String(limit)])
            let fields = run.out.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(run.status == 0 && fields.count == 2, "\(run.out) \(run.stderr)")
            return (Int(fields.first ?? -1), fields.last ?? -1)
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
