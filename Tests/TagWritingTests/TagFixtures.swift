import Foundation
import TestSupport
@testable import TagWriting

/// Fixtures for the tag tests, made with ffmpeg and mutagen in a fresh directory per test, and the
/// reference checks: mutagen's reading of the tags, ffmpeg's md5 of the decoded audio.
enum TagFixtures {
    struct Format: Sendable, CustomStringConvertible {
        var name: String
        var fileExtension: String
        var ffmpeg: [String]
        /// Tags written by mutagen instead of ffmpeg (ffmpeg writes a WAV's tags as RIFF INFO, which mutagen
        /// does not read, and an ASF Author twice).
        var mutagenTags: String? = nil
        /// A file of `Fixtures/` copied instead of one ffmpeg makes (no encoder here: see Fixtures/README.md).
        var vendored: String? = nil
        var description: String { name }
    }

    static let formats: [Format] = [
        Format(name: "flac", fileExtension: "flac", ffmpeg: ["-c:a", "flac"]),
        Format(name: "mp3-id3v2.3", fileExtension: "mp3", ffmpeg: ["-c:a", "libmp3lame", "-id3v2_version", "3"]),
        Format(name: "mp3-id3v2.4", fileExtension: "mp3", ffmpeg: ["-c:a", "libmp3lame", "-id3v2_version", "4"]),
        Format(name: "m4a", fileExtension: "m4a", ffmpeg: ["-c:a", "aac"]),
        Format(name: "ogg-vorbis", fileExtension: "ogg", ffmpeg: ["-c:a", "libvorbis"]),
        Format(name: "opus", fileExtension: "opus", ffmpeg: ["-c:a", "libopus"]),
        Format(name: "wav", fileExtension: "wav", ffmpeg: ["-c:a", "pcm_s16le"], mutagenTags: """
            from mutagen.wave import WAVE
            from mutagen.id3 import TIT2, TPE1, TALB
            f = WAVE(p); f.add_tags()
            f.tags.add(TIT2(text=["Old"])); f.tags.add(TPE1(text=["Someone"])); f.tags.add(TALB(text=["Album"]))
            f.save()
            """),
        Format(name: "aiff", fileExtension: "aiff", ffmpeg: ["-c:a", "pcm_s16be", "-write_id3v2", "1"]),
        Format(name: "wavpack", fileExtension: "wv", ffmpeg: ["-c:a", "wavpack"]),
        Format(name: "asf", fileExtension: "wma", ffmpeg: ["-c:a", "wmav2"], mutagenTags: """
            from mutagen.asf import ASF
            f = ASF(p); f["Title"] = ["Old"]; f["Author"] = ["Someone"]; f["WM/AlbumTitle"] = ["Album"]; f.save()
            """),
        Format(name: "ape", fileExtension: "ape", ffmpeg: [], mutagenTags: """
            from mutagen.apev2 import APEv2
            t = APEv2(); t["Title"] = "Old"; t["Artist"] = "Someone"; t["Album"] = "Album"; t.save(p)
            """, vendored: "mac-399.ape"),
        Format(name: "ogg-flac", fileExtension: "oga", ffmpeg: ["-c:a", "flac", "-f", "ogg"]),
    ]

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-tag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A second of tone in `format`, tagged title=Old, artist=Someone, album=Album (where ffmpeg writes tags).
    static func make(_ format: Format, in dir: URL, name: String = "song", seconds: Double = 1) throws -> String {
        let path = dir.appendingPathComponent("\(name).\(format.fileExtension)").path
        if let vendored = format.vendored {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + vendored)
            try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: path))
            if let code = format.mutagenTags { try python(code, path) }
            return path
        }
        let tags = format.mutagenTags != nil ? ["-map_metadata", "-1", "-fflags", "+bitexact"]
            : ["-metadata", "title=Old", "-metadata", "artist=Someone", "-metadata", "album=Album"]
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)"]
                                     + format.ffmpeg + tags + [path])
        guard r.status == 0 else { throw FixtureError(message: "ffmpeg: \(r.stderr)") }
        if let code = format.mutagenTags { try python(code, path) }
        return path
    }

    /// ffmpeg's md5 of the decoded audio.
    static func audioMD5(_ path: String) throws -> String {
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-f", "md5", "-"])
        guard r.status == 0 else { throw FixtureError(message: "ffmpeg decode \(path): \(r.stderr)") }
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// mutagen's view of the tags (read_tags.py): per path, key → values, plus counts (pictures, priv, chap).
    static func mutagen(_ paths: [String]) throws -> [String: [String: Any]] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("read_tags.py").path
        let r = try ChildProcess.run("python3", [script] + paths)
        guard r.status == 0 else { throw FixtureError(message: "mutagen: \(r.stderr)") }
        return try JSONSerialization.jsonObject(with: r.stdout) as? [String: [String: Any]] ?? [:]
    }

    static func mutagen(_ path: String) throws -> [String: Any] { try mutagen([path])[path] ?? [:] }

    /// Runs a mutagen snippet with `path` as `p` (to add frames mlib does not write: PRIV, CHAP).
    static func python(_ code: String, _ path: String) throws {
        let r = try ChildProcess.run("python3", ["-c", "import sys\np = sys.argv[1]\n" + code, path])
        guard r.status == 0 else { throw FixtureError(message: "python: \(r.stderr)") }
    }

    /// A small PNG (1×1).
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    static func hasID3v1(_ path: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        let size = (try? h.seekToEnd()) ?? 0
        guard size >= 128 else { return false }
        try? h.seek(toOffset: size - 128)
        return h.readData(ofLength: 3) == Data("TAG".utf8)
    }

    /// An MP3 whose ID3v2.3 tag has an extended header, behind which an ID3v1 tag holds other values:
    /// TagLib 1.13 skips only 6 of its 10 bytes (a v2.3 extended header's size leaves out its own 4), finds
    /// no frames, and wrote the ID3v1 values into the tag (issue 46).
    static func extendedHeaderMP3(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("exthdr.mp3").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libmp3lame",
                                                "-id3v2_version", "0", path])
        guard r.status == 0 else { throw FixtureError(message: "ffmpeg: \(r.stderr)") }
        try python("""
            def frame(i, body): return i.encode() + len(body).to_bytes(4, "big") + b"\\0\\0" + body
            def text(s): return b"\\0" + s.encode("latin-1")
            frames = frame("TIT2", text("Old")) + frame("TPE1", text("Interpret v2")) + frame("TALB", text("Album v2"))
            body = (6).to_bytes(4, "big") + b"\\0\\0" + (512).to_bytes(4, "big") + frames + bytes(512)
            size = len(body); ss = bytes([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f])
            def f(s, n): return s.encode("latin-1")[:n].ljust(n, b"\\0")
            d = open(p, "rb").read()
            open(p, "wb").write(b"ID3\\x03\\x00\\x40" + ss + body + d + b"TAG" + f("Old", 30) + f("Interpret v1", 30) + f("Album v1", 30)
                                + b"1999" + f("", 28) + b"\\0\\x07" + bytes([17]))
            """, path)
        return path
    }

    /// An MP3 with 100 kB of junk between its ID3v2.3 tag and its first frame (as in ExoPlayer's test data):
    /// FFmpeg finds the frames behind the junk, TagLib's read of the length does not agree (issue 46).
    static func junkPrefixMP3(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("junk.mp3").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=2", "-c:a", "libmp3lame",
                                                "-id3v2_version", "3", "-metadata", "title=Old", "-metadata", "artist=Someone", path])
        guard r.status == 0 else { throw FixtureError(message: "ffmpeg: \(r.stderr)") }
        try python("""
            d = open(p, "rb").read(); s = d[6:10]; tag = 10 + ((s[0] << 21) | (s[1] << 14) | (s[2] << 7) | s[3])
            junk = bytes((i * 7 + 3) % 251 for i in range(100000)).replace(b"\\xff", b"\\x00")
            open(p, "wb").write(d[:tag] + junk + d[tag:])
            """, path)
        return path
    }

    /// An AIFF cut to two thirds, as an interrupted copy leaves it, its SSND chunk last: FFmpeg still reads
    /// its audio, a write (which gives FORM its true size) would leave none. The check refuses it.
    static func truncatedAIFF(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("truncated.aiff").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "pcm_s16be",
                                                "-write_id3v2", "1", "-metadata", "title=Old", "-metadata", "artist=Someone", path])
        guard r.status == 0 else { throw FixtureError(message: "ffmpeg: \(r.stderr)") }
        try python("""
            import struct
            d = open(p, "rb").read(); pos = 12; chunks = []
            while pos + 8 <= len(d):
                size = struct.unpack(">I", d[pos + 4:pos + 8])[0]
                chunks.append((d[pos:pos + 4], d[pos:pos + 8 + size + (size & 1)])); pos += 8 + size + (size & 1)
            body = b"AIFF" + b"".join(c for i, c in chunks if i != b"SSND") + b"".join(c for i, c in chunks if i == b"SSND")
            whole = b"FORM" + struct.pack(">I", len(body)) + body
            open(p, "wb").write(whole[:len(whole) * 2 // 3])
            """, path)
        return path
    }

    struct FixtureError: Error, CustomStringConvertible { var message: String; var description: String { message } }
}

/// A temporary directory with a journaled `TagWriter` in it, removed when the test's suite instance goes:
/// the base of the writer suites (Swift Testing makes one instance per test).
class TagWorkspace {
    let dir: URL
    let writer: TagWriter

    init() throws {
        dir = try TagFixtures.temporaryDirectory()
        writer = TagWriter(journal: TagJournal(directory: dir.appendingPathComponent("journal").path))
    }

    deinit { try? FileManager.default.removeItem(at: dir) }
}
