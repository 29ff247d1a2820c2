import Foundation
@testable import MediaProbe
import MediaModel
import Testing

struct TagMappingTests {
    @Test func numberPairsSplit() {
        #expect(TagMapping.numberPair("3/12") == (3, 12))
        #expect(TagMapping.numberPair("03") == (3, nil))
        #expect(TagMapping.numberPair(" 2 / 3 ") == (2, 3))
        #expect(TagMapping.numberPair("x") == (nil, nil))
        #expect(TagMapping.numberPair(nil) == (nil, nil))
    }

    @Test func datesNormalise() {
        #expect(TagMapping.releaseDate("2003-05-17") == "2003-05-17")
        #expect(TagMapping.releaseDate("2003") == "2003")
        #expect(TagMapping.releaseDate("2003-05-17T10:00:00Z") == "2003-05-17")
        #expect(TagMapping.releaseDate("2003/05") == "2003-05")
        #expect(TagMapping.releaseDate("20030517") == "2003-05-17")
        #expect(TagMapping.releaseDate("2003-13-01") == "2003")
        // Dates written out in words (issue 25: dropped before; mutagen and players show them).
        #expect(TagMapping.releaseDate("May 2003") == "2003-05")
        #expect(TagMapping.releaseDate("Oct 3, 1995") == "1995-10-03")
        #expect(TagMapping.releaseDate("3 October 1995") == "1995-10-03")
        #expect(TagMapping.releaseDate("Released in 1995") == "1995")
        #expect(TagMapping.releaseDate("Tuesday") == nil)
        #expect(TagMapping.releaseDate("Decade 1990") == "1990")
        #expect(TagMapping.releaseDate("12 34") == nil)
        #expect(TagMapping.releaseDate("") == nil)
    }

    @Test func gainsParse() {
        #expect(TagMapping.leadingNumber("-6.50 dB") == -6.5)
        #expect(TagMapping.leadingNumber("+1.2 dB") == 1.2)
        #expect(TagMapping.leadingNumber("0.988831") == 0.988831)
        #expect(TagMapping.leadingNumber("loud") == nil)
    }

    @Test func firstSourceWinsAndOthersFillGaps() {
        let merged = TagMapping.merge([[("TITLE", "A"), ("ARTIST", "x"), ("ARTIST", "y")], [("TITLE", "B"), ("GENRE", "Rock")]])
        #expect(merged == ["TITLE": "A", "ARTIST": "x; y", "GENRE": "Rock"])
    }

    @Test func ffmpegKeysCanonicalise() {
        #expect(TagMapping.canonicalFFmpegKey("album_artist") == "ALBUMARTIST")
        #expect(TagMapping.canonicalFFmpegKey("ALBUM_ARTIST") == "ALBUMARTIST")
        #expect(TagMapping.canonicalFFmpegKey("DISC") == "DISCNUMBER")
        #expect(TagMapping.canonicalFFmpegKey("MusicBrainz Album Id") == "MUSICBRAINZ_ALBUMID")
        #expect(TagMapping.canonicalFFmpegKey("lyrics-eng") == "LYRICS")
        #expect(TagMapping.canonicalFFmpegKey("major_brand") == nil)
        #expect(TagMapping.canonicalFFmpegKey("_STATISTICS_TAGS") == nil)
    }
}

/// Errors and odd paths, on files made at test time.
struct ProbeErrorTests {
    let dir: URL = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-probe-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }()

    func code(_ path: MediaPath) -> String? {
        do { _ = try MediaProbe.probe(path); return nil } catch { return error.code }
    }

    @Test func missingFile() { #expect(code(MediaPath(dir.path + "/nope.mp3")) == "not-found") }
    @Test func directory() { #expect(code(MediaPath(dir.path)) == "not-a-file") }

    @Test func emptyFile() throws {
        let p = dir.appendingPathComponent("empty.flac")
        try Data().write(to: p)
        #expect(code(MediaPath(p.path)) == "empty")
    }

    @Test func textFileWithMediaExtension() throws {
        let p = dir.appendingPathComponent("notes.m4a")
        try Data("just some text, not audio\n".utf8).write(to: p)
        #expect(code(MediaPath(p.path)) == "not-media")
    }

    @Test func unreadableFile() throws {
        let p = dir.appendingPathComponent("secret.mp3")
        try Data(repeating: 1, count: 100).write(to: p)
        chmod(p.path, 0)
        let result = code(MediaPath(p.path))
        // root reads mode-000 files; everyone else must get a clear permission error.
        if getuid() == 0 { #expect(result == "not-media") } else { #expect(result == "permission-denied") }
    }

    @Test func nonUTF8FileNameIsReadByItsBytes() throws {
        let source = FixtureTests.fixtures.appendingPathComponent("expected.json")
        try #require(FileManager.default.fileExists(atPath: source.path))
        let good = try #require(FixtureTests.expectations.first { !($0.spec["error"] is String) && ($0.file.hasSuffix(".flac") || $0.file.hasSuffix(".mp3")) })
        let data = try Data(contentsOf: FixtureTests.fixtures.appendingPathComponent(good.file))
        // "caf\xE9.mp3": Latin-1 é, invalid as UTF-8.
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array((good.file.hasSuffix(".flac") ? ".flac" : ".mp3").utf8)
        let path = MediaPath(dir.path).appending(MediaPath(bytes: name))
        #expect(!path.isUTF8)
        let fd = path.withCString { open($0, O_CREAT | O_WRONLY, 0o644) }
        try #require(fd >= 0)
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, data.count) }
        close(fd)
        let result = try MediaProbe.probe(path)
        #expect(result.item.path == path)
        #expect(result.item.playbackDuration > 0)
    }
}

/// Reading must never open a file for writing: closing such a descriptor raises inotify's IN_CLOSE_WRITE
/// even when nothing was written, and watchers (MPD's auto_update, sync tools) then treat the file as
/// changed. TagLib's own FileStream opens read-write when it can; mlib gives it a read-only stream.
struct ReadOnlyAccessTests {
    @Test func probingEveryFixtureRaisesNoWriteEvents() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-inotify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = try FileManager.default.contentsOfDirectory(atPath: source.path)
            .filter { !["json", "md", "sh"].contains(($0 as NSString).pathExtension) && !$0.hasPrefix("bad") }
        for name in names { try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: dir.appendingPathComponent(name)) }
        #expect(names.count > 10)

        let watch = inotify_init1(Int32(IN_NONBLOCK))
        try #require(watch >= 0)
        defer { close(watch) }
        try #require(inotify_add_watch(watch, dir.path, UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB)) >= 0)
        for name in names {
            for detail in [MediaProbe.Detail.streams, .library] {
                _ = try? MediaProbe.probe(MediaPath(dir.appendingPathComponent(name).path), detail: detail)
            }
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(watch, &buffer, buffer.count)
        #expect(count < 0 && errno == EAGAIN, "reading raised \(count) bytes of inotify write events")
    }
}

/// Zeros or noise under a media name (a preallocated download, a damaged copy) must fail fast, not be read
/// to the end: FFmpeg's parsers and TagLib's MPEG and FLAC readers search on through data they cannot
/// frame (a 1 GiB ".mp3" of zeros took 104 s). The kernel's count of bytes this process read
/// (/proc/self/io `rchar`) shows how much of the file was touched: about 66 MiB now (FFmpeg's 64 MiB
/// budget, TagLib's 2 MiB), over 1 GiB before. Other suites reading files meanwhile add to the count, far
/// less than the margin. Sparse files: a gibibyte costs no disk.
@Suite(.serialized) struct UnframeableDataTests {
    static func bytesRead() throws -> Int64 {
        let io = try String(contentsOfFile: "/proc/self/io", encoding: .utf8)
        let line = try #require(io.split(separator: "\n").first { $0.hasPrefix("rchar:") })
        return try #require(Int64(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
    }

    /// A sparse file of `1 GiB`, `head` at its start, zeros after.
    static func gibibyte(_ ext: String, head: [UInt8] = []) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-unframeable-\(UUID().uuidString).\(ext)").path
        try #require(FileManager.default.createFile(atPath: path, contents: Data(head)) && truncate(path, 1 << 30) == 0)
        return path
    }

    /// Probes `path` at both detail levels; returns the error codes.
    func probeReadingLittle(_ path: String) throws -> [String?] {
        try [MediaProbe.Detail.streams, .library].map { (detail: MediaProbe.Detail) -> String? in
            let before = try Self.bytesRead()
            var code: String?
            do throws(ProbeError) { _ = try MediaProbe.probe(MediaPath(path), detail: detail) } catch { code = error.code }
            let read = try Self.bytesRead() - before
            #expect(read < 300 << 20, "\(path) (\(detail)): read \(read >> 20) MiB")
            return code
        }
    }

    @Test(arguments: ["mp3", "flac"])
    func zerosAreRejectedAfterReadingLittleOfThem(_ ext: String) throws {
        let path = try Self.gibibyte(ext)
        defer { unlink(path) }
        #expect(try probeReadingLittle(path) == ["not-media", "not-media"])
    }

    /// Noise can hold frame headers that look valid, so the verdict may go either way; what matters is
    /// that the rest of the file is not searched.
    @Test func noiseNamedMP3IsNotReadToTheEnd() throws {
        var generator = SeededGenerator(seed: 7)
        let path = try Self.gibibyte("mp3", head: (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        defer { unlink(path) }
        _ = try probeReadingLittle(path)
    }
}
