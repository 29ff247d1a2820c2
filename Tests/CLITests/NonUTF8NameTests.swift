import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A file named in Latin-1 (`caf\xe9.flac`: not UTF-8) was scanned, listed and exported, but every command
/// that opens it for decoding failed with "No such file or directory": the decoder was given the name as
/// a String, whose U+FFFD names another file (issue 39). A path is bytes from the disk to every front.
/// The name reaches `mlib` as bytes through `sh` (a test's String arguments cannot hold it).
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct NonUTF8NameTests {
    /// A folder holding `caf\xe9.flac` (2 s of noise, title "Café"), scanned into `library.sqlite` beside it.
    struct Folder {
        let dir: URL
        var music: URL { dir.appendingPathComponent("music") }
        var library: String { dir.appendingPathComponent("library.sqlite").path }

        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-latin1-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("music"), withIntermediateDirectories: true)
            let made = dir.appendingPathComponent("music/made.flac").path
            let r = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "anoisesrc=d=2:c=pink:r=44100:a=0.3",
                                                    "-metadata", "title=Café", made])
            try #require(r.status == 0, "ffmpeg: \(r.stderr)")
            let latin1 = Array(dir.appendingPathComponent("music").path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".flac".utf8)
            let renamed = (latin1 + [0]).withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { rename(made, $0.baseAddress!) }
            }
            try #require(renamed == 0, "rename: \(errno)")
            let scan = try CLI.run(["scan", "--library", library, "-q", music.path])
            try #require(scan.status == 0, "mlib scan: \(scan.stderr)")
            try #require(try CLI.run(["ls", "--count", "--library", library]).out == "1\n")
        }

        func remove() { try? FileManager.default.removeItem(at: dir) }

        /// `mlib ARGUMENTS… <music>/caf\xe9.flac` with the name as bytes (through `sh`).
        func mlibWithFile(_ arguments: [String]) throws -> ChildProcess.Output {
            try ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" \"$(printf '%s/caf\\351.flac' \"$MUSIC\")\"", CLI.binary.path] + arguments,
                                 environment: ["MUSIC": music.path])
        }
    }

    @Test func playPlaysIt() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let r = try CLI.run(["play", "--library", folder.library, "--sink", "null:fast", "title:Café"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("No such file"), "\(r.stderr)")
    }

    @Test func playFilesPlaysIt() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let r = try folder.mlibWithFile(["play", "--sink", "null:fast", "--library", folder.library, "--files"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("No such file") && !r.stderr.contains("no such file"), "\(r.stderr)")
    }

    @Test func tagWritesItAndTheLibraryFollows() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let r = try CLI.run(["tag", "--library", folder.library, "-y", "title:Café", "genre=Jazz"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLI.run(["ls", "--library", folder.library, "-f", "$genre"]).out == "Jazz\n")
        // No hidden copy or stray file left beside it; the file is still the only one there.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.music.path).count == 1)
    }

    @Test func tagFilesWritesIt() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let r = try folder.mlibWithFile(["tag", "-y", "comments=written", "--files"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("No such file"), "\(r.stderr)")
        let read = try folder.mlibWithFile(["info", "--format", "$comments"])
        #expect(read.out == "written\n", "\(read.out) \(read.stderr)")
    }

    @Test func analyzeMeasuresIt() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let r = try CLI.run(["analyze", "--library", folder.library])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLI.run(["ls", "--count", "--library", folder.library, "loudness < 0"]).out == "1\n")
    }
}
