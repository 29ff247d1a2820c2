import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A file named in Latin-1 (`caf\xe9.flac`, not UTF-8): its MPD URI carried U+FFFD, which names no file, so
/// `add` of the URI a listing gave found nothing and the file could not be played (issue 39). Its URI now
/// carries the bytes as U+EF80 + (byte − 0x80) (`MediaPath.reversibleText`), which `add` takes back; the
/// decoder opens the file by its bytes. (mpd itself leaves such files out of its database.)
/// Whether the tests' `python3` imports `module` (python-mpd2 is `mpd`).
func pythonModuleExists(_ module: String) -> Bool {
    (try? ChildProcess.run("python3", ["-c", "import \(module)"]).status) == 0
}

@Suite(.serialized, .enabled(if: toolExists("mpc") && toolExists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct NonUTF8URITests {
    @Test func aLatin1NameIsListedAddedAndPlayed() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let made = library.music.appendingPathComponent("Long/tone1.flac").path
        let latin1 = Array(library.music.appendingPathComponent("Long").path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".flac".utf8)
        let renamed = (latin1 + [0]).withUnsafeBufferPointer { b in b.withMemoryRebound(to: CChar.self) { rename(made, $0.baseAddress!) } }
        try #require(renamed == 0)
        try #require(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q"]).status == 0)
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }

        let uri = "Long/caf\u{EFE9}.flac"
        #expect(try server.mpc(["ls", "Long"]).out == "\(uri)\nLong/tone2.flac\n")
        #expect(try server.mpc(["add", uri]).status == 0)
        #expect(try server.mpc(["-f", "%file%", "playlist"]).out == "\(uri)\n")
        let playing = try server.mpc(["play"]).out
        #expect(playing.contains("[playing]"), "\(playing)")
        usleep(500_000)
        let status = try server.mpc(["status"]).out
        #expect(status.contains("[playing]") && !status.contains("ERROR"), "\(status)")
    }

    /// Makes `Caf\xE9` (Latin-1, not UTF-8) in the music folder, moves Long/tone2.flac into it as `name`
    /// (bytes), and scans again.
    static func latin1Directory(in library: TestLibrary, songNamed name: [UInt8]) throws {
        let latin1 = Array(library.music.path.utf8) + Array("/Caf".utf8) + [0xE9]
        let made = (latin1 + [0]).withUnsafeBufferPointer { b in b.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } }
        try #require(made == 0)
        let song = library.music.appendingPathComponent("Long/tone2.flac").path
        let moved = (latin1 + [UInt8(ascii: "/")] + name + [0]).withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { rename(song, $0.baseAddress!) }
        }
        try #require(moved == 0)
        try #require(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q"]).status == 0)
    }

    /// A directory named in Latin-1: `lsinfo` lists it by a name that, sent back, lists and adds its songs
    /// (the view named it with U+FFFD, which named nothing).
    @Test func aLatin1DirectoryIsListedAndAdded() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        try Self.latin1Directory(in: library, songNamed: Array("tone2.flac".utf8))
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }

        let directory = "Caf\u{EFE9}"
        #expect(try server.mpc(["ls"]).out.split(separator: "\n").contains(Substring(directory)))
        #expect(try server.mpc(["ls", directory]).out == "\(directory)/tone2.flac\n")
        #expect(try server.mpc(["add", directory]).status == 0)
        #expect(try server.mpc(["-f", "%file%", "playlist"]).out == "\(directory)/tone2.flac\n")
    }

    /// The same directory through python-mpd2 (the library most Python clients use): `lsinfo` and `listfiles`
    /// (which reads the disk, not the library) name it and its song by the names `lsinfo` gave. `listfiles`
    /// opened the U+FFFD spelling of the path and answered "Failed to open".
    @Test(.enabled(if: pythonModuleExists("mpd"), "python-mpd2 missing (scripts/install-deps.sh)"))
    func aLatin1DirectoryIsListedFromTheDiskThroughPythonMPD2() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        try Self.latin1Directory(in: library, songNamed: Array("caf".utf8) + [0xE9] + Array(".flac".utf8))
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }

        // One JSON line per answer: lsinfo of the top, lsinfo of the directory, listfiles of the top and of it.
        let script = """
            import json, sys, mpd
            c = mpd.MPDClient(); c.connect("127.0.0.1", int(sys.argv[1]))
            top = [e["directory"] for e in c.lsinfo() if "directory" in e]
            name = next(d for d in top if d.startswith("Caf"))
            print(json.dumps({"name": name, "lsinfo": [e.get("file") for e in c.lsinfo(name)],
                              "top": [e.get("directory") for e in c.listfiles() if "directory" in e],
                              "listfiles": [[e.get("file"), e.get("size")] for e in c.listfiles(name)]}))
            """
        let r = try run("python3", ["-c", script, String(server.port)])
        try #require(r.status == 0, "\(r.err)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let directory = "Caf\u{EFE9}"
        #expect(answer["name"] as? String == directory)
        #expect(answer["lsinfo"] as? [String] == ["\(directory)/caf\u{EFE9}.flac"])
        #expect((answer["top"] as? [String])?.contains(directory) == true, "\(r.out)")
        let files = answer["listfiles"] as? [[Any]]
        #expect(files?.count == 1 && files?[0][0] as? String == "caf\u{EFE9}.flac" && files?[0][1] is String, "\(r.out)")
    }
}
