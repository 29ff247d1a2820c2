import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A file named in Latin-1 (`caf\xe9.flac`, not UTF-8): its MPD URI carried U+FFFD, which names no file, so
/// `add` of the URI a listing gave found nothing and the file could not be played (issue 39). Its URI now
/// carries the bytes as U+EF80 + (byte − 0x80) (`MediaPath.reversibleText`), which `add` takes back; the
/// decoder opens the file by its bytes. (mpd itself leaves such files out of its database.)
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

    /// A directory named in Latin-1: `lsinfo` lists it by a name that, sent back, lists and adds its songs
    /// (the view named it with U+FFFD, which named nothing).
    @Test func aLatin1DirectoryIsListedAndAdded() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let latin1 = Array(library.music.path.utf8) + Array("/Caf".utf8) + [0xE9]
        let made = (latin1 + [0]).withUnsafeBufferPointer { b in b.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } }
        try #require(made == 0)
        let song = library.music.appendingPathComponent("Long/tone2.flac").path
        let moved = (latin1 + Array("/tone2.flac".utf8) + [0]).withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { rename(song, $0.baseAddress!) }
        }
        try #require(moved == 0)
        try #require(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q"]).status == 0)
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }

        let directory = "Caf\u{EFE9}"
        #expect(try server.mpc(["ls"]).out.split(separator: "\n").contains(Substring(directory)))
        #expect(try server.mpc(["ls", directory]).out == "\(directory)/tone2.flac\n")
        #expect(try server.mpc(["add", directory]).status == 0)
        #expect(try server.mpc(["-f", "%file%", "playlist"]).out == "\(directory)/tone2.flac\n")
    }
}
