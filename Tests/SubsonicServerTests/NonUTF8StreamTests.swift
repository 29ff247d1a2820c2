import Foundation
import PostgresTestServer
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A file named in Latin-1 (`caf\xe9.flac`, not UTF-8) through a real client: `stream` and `download` by
/// py-sonic and by curl send the file's bytes (issue 39: "a path is bytes from the disk to every front and
/// back"; `stream` answered "No such file or directory" when the server opened the U+FFFD spelling).
@Suite(.serialized, .enabled(if: pythonClientInstalled && ChildProcess.exists("curl") && ChildProcess.exists("ffmpeg"),
                             "python3 with py-sonic, curl or ffmpeg missing (scripts/install-deps.sh)"))
struct NonUTF8StreamTests {
    /// The client's side: the FLAC song (the only one in the library) found by a full search3 sync, then
    /// its `stream` and `download` by py-sonic and by curl, each as a SHA-256 of what came.
    static let client = """
        import hashlib, json, subprocess, sys, urllib.parse
        import libsonic
        port, user, password, original = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
        conn = libsonic.Connection("http://127.0.0.1", user, password, port=port, appName="mlib-test")
        songs = conn.search3("", artistCount=0, albumCount=0, songCount=500)["searchResult3"]["song"]
        song = next(s for s in songs if s.get("suffix") == "flac")
        out = {"path": song.get("path"), "expected": hashlib.sha256(open(original, "rb").read()).hexdigest(),
               "py-sonic stream": hashlib.sha256(conn.stream(song["id"]).read()).hexdigest(),
               "py-sonic download": hashlib.sha256(conn.download(song["id"]).read()).hexdigest()}
        salt = "c0ffee"
        token = hashlib.md5((password + salt).encode()).hexdigest()
        for method in ("stream", "download"):
            query = urllib.parse.urlencode({"u": user, "t": token, "s": salt, "v": "1.16.1", "c": "curl", "id": song["id"]})
            r = subprocess.run(["curl", "-sS", "-f", f"http://127.0.0.1:{port}/rest/{method}?{query}"], capture_output=True)
            out["curl " + method] = (hashlib.sha256(r.stdout).hexdigest() if r.returncode == 0
                                     else f"curl exit {r.returncode}: {r.stderr.decode(errors='replace')}")
        print(json.dumps(out))
        """

    @Test(arguments: Store.available)
    func aLatin1NameIsStreamedAndDownloaded(_ store: Store) throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let original = library.music.appendingPathComponent("Album1/flac-vorbis-cover.flac").path
        let latin1 = Array(library.music.appendingPathComponent("Album1").path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".flac".utf8)
        let renamed = (latin1 + [0]).withUnsafeBufferPointer { b in b.withMemoryRebound(to: CChar.self) { rename(original, $0.baseAddress!) } }
        try #require(renamed == 0)
        let rescan = try mlib(["scan", "--library", library.library, "-q"])
        try #require(rescan.status == 0, "\(rescan.stderr)")
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }

        let r = try ChildProcess.run("python3", ["-c", Self.client, String(server.port), TestLibrary.user, TestLibrary.password,
                                                 Paths.fixtures.appendingPathComponent("flac-vorbis-cover.flac").path])
        try #require(r.status == 0, "\(r.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let expected = try #require(answer["expected"] as? String)
        for fetch in ["py-sonic stream", "py-sonic download", "curl stream", "curl download"] {
            #expect(answer[fetch] as? String == expected, "\(fetch): \(answer[fetch] ?? "nothing") (path \(answer["path"] ?? "none"))")
        }
    }
}
