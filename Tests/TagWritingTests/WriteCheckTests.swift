import Foundation
import Testing
import TestSupport
@testable import TagWriting

/// Issue 46: a tag write changes what was asked and nothing else. Each file is made here (ffmpeg, mutagen,
/// a few bytes of Python) in a shape that real files have and that mlib's writes damaged; after
/// `title=… comment=…` the file must be either written with every other field mutagen and ffprobe read,
/// and its decoded audio, as they were, or refused by the check (`WriteCheck`) with its bytes as they were.
@Suite final class WriteCheckTests: TagWorkspace {
    /// An MP3 whose ID3v2 tag holds only a title and whose ID3v1 tag holds the artist, album, year, track
    /// and a comment (mlib's reader, mutagen and players show them): the write blanked them.
    static func mp3WithID3v1Only(in dir: URL) throws -> String {
        let path = try TagFixtures.make(TagFixtures.formats.first { $0.name == "mp3-id3v2.3" }!, in: dir, name: "v1")
        try TagFixtures.python("""
            from mutagen.id3 import ID3, TPE1, TALB
            t = ID3(p); t.delall("TPE1"); t.delall("TALB"); t.save(p, v2_version=3, v1=0)
            def f(s, n): return s.encode("latin-1")[:n].ljust(n, b"\\0")
            open(p, "ab").write(b"TAG" + f("V1 Title", 30) + f("V1 Artist", 30) + f("V1 Album", 30) + b"1999"
                                + f("V1 comment", 28) + b"\\0\\x05" + bytes([17]))
            """, path)
        return path
    }

    @Test func id3v1OnlyValuesAreNotBlanked() throws {
        let path = try Self.mp3WithID3v1Only(in: dir)
        let report = try expectOnlyAsked(path)
        if report.outcome == .failed { #expect(report.error?.contains("ARTIST") == true, "\(report.error ?? "")") }
    }

    /// Written, not only refused: the ID3v1 fields not asked stay (values held only there, a Shift-JIS
    /// ID3v1 byte for byte), and an ID3v2.4 tag's TIPL roles, private frame and TXXX stay (the frames of
    /// the fields asked are replaced through TagLib's ID3v2 API; its property map dropped TIPL).
    @Test func id3FramesAndID3v1FieldsNotAskedStay() throws {
        let v1 = try Self.mp3WithID3v1Only(in: dir)
        #expect([.inPlace, .rewritten].contains(try expectOnlyAsked(v1).outcome))
        let sjis = try TagFixtures.make(TagFixtures.formats.first { $0.name == "mp3-id3v2.3" }!, in: dir, name: "sjis")
        try TagFixtures.python("""
            from mutagen.id3 import ID3
            t = ID3(p); t.delall("TPE1"); t.delall("TALB"); t.save(p, v2_version=3, v1=0)
            def f(b, n): return b[:n].ljust(n, b"\\0")
            open(p, "ab").write(b"TAG" + f(b"Old", 30) + f("歌手".encode("cp932"), 30) + f("アルバム".encode("cp932"), 30) + b"2003"
                                + f("コメント".encode("cp932"), 30) + bytes([12]))
            """, sjis)
        let sjisTail = try Data(contentsOf: URL(fileURLWithPath: sjis)).suffix(128).dropFirst(33).prefix(64)  // artist, album
        #expect([.inPlace, .rewritten].contains(try expectOnlyAsked(sjis).outcome))
        #expect(try Data(contentsOf: URL(fileURLWithPath: sjis)).suffix(128).dropFirst(33).prefix(64) == sjisTail)
        let tipl = try TagFixtures.make(TagFixtures.formats.first { $0.name == "mp3-id3v2.4" }!, in: dir, name: "tipl")
        try TagFixtures.python("""
            from mutagen.id3 import ID3, TIPL, PRIV, TXXX
            t = ID3(p); t.add(TIPL(encoding=3, people=[["producer", "P. Roducer"], ["arranger", "A. Rranger"], ["mix", "M. Ixer"]]))
            t.add(PRIV(owner="tag-safety", data=b"\\x01\\x02")); t.add(TXXX(encoding=3, desc="CUSTOM", text=["kept"])); t.save(p)
            """, tipl)
        #expect([.inPlace, .rewritten].contains(try expectOnlyAsked(tipl).outcome))
    }

    /// FLAC, Ogg Vorbis and Opus files whose comment is in DESCRIPTION (as ffmpeg and many rippers write it):
    /// a second field COMMENT was added beside it, which ffprobe does not show.
    @Test(arguments: ["flac", "ogg-vorbis", "opus"])
    func aCommentInDescriptionIsNotDoubled(_ name: String) throws {
        let path = try TagFixtures.make(TagFixtures.formats.first { $0.name == name }!, in: dir, name: "desc")
        try TagFixtures.python("import mutagen\nf = mutagen.File(p); f['DESCRIPTION'] = ['Old comment']; f.save()", path)
        let report = try expectOnlyAsked(path)
        let tags = try TagFixtures.mutagen(path)
        _ = tags
        if report.outcome == .failed { #expect(report.error?.contains("DESCRIPTION") == true, "\(report.error ?? "")") }
    }

    /// An AIFF cut short (an interrupted copy) whose ID3 chunk precedes the sound data: the rewrite set the
    /// FORM size from the chunks that are there, ending the FORM before SSND: it decoded to nothing.
    @Test func aTruncatedAIFFKeepsItsAudio() throws {
        let path = dir.appendingPathComponent("cut.aiff").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "pcm_s16be",
                                                "-write_id3v2", "1", "-metadata", "title=Old", "-metadata", "artist=Someone", path])
        #expect(r.status == 0)
        try TagFixtures.python("""
            import struct
            d = open(p, "rb").read(); pos = 12; chunks = []
            while pos + 8 <= len(d):
                size = struct.unpack(">I", d[pos + 4:pos + 8])[0]
                chunks.append((d[pos:pos + 4], d[pos:pos + 8 + size + (size & 1)])); pos += 8 + size + (size & 1)
            body = b"AIFF" + b"".join(c for i, c in chunks if i != b"SSND") + b"".join(c for i, c in chunks if i == b"SSND")
            whole = b"FORM" + struct.pack(">I", len(body)) + body
            open(p, "wb").write(whole[:len(whole) * 2 // 3])
            """, path)
        let report = try expectOnlyAsked(path)
        if report.outcome == .failed { #expect(report.error?.contains("audio packets") == true, "\(report.error ?? "")") }
    }

    /// `force` writes what the check would refuse (its documented reason: a difference read and accepted).
    @Test func forceWritesAnyway() throws {
        let path = try Self.mp3WithID3v1Only(in: dir)
        let forced = TagWriter(journal: writer.journal, force: true)
        let report = forced.edit(path, TagEdit(changes: [TagChange(argument: "title=Forced")!]), write: true)
        #expect(report.error == nil)
        #expect(report.outcome == .inPlace || report.outcome == .rewritten)
        #expect(try TagFixtures.mutagen(path)["title"] as? [String] == ["Forced"])
    }

    /// What `mlib tag` says and its exit status when the check refuses a file, beside one it writes.
    @Test func theCommandReportsARefusal() throws {
        let refused = try Self.mp3WithID3v1Only(in: dir)
        let fine = try TagFixtures.make(TagFixtures.formats.first { $0.name == "flac" }!, in: dir, name: "fine")
        let before = try Data(contentsOf: URL(fileURLWithPath: refused))
        let env = ["MLIB_TAG_JOURNAL": dir.appendingPathComponent("journal").path, "HOME": dir.path,
                   "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path, "XDG_DATA_HOME": dir.appendingPathComponent("data").path]
        let r = try ChildProcess.run(ChildProcess.mlib.path, ["tag", "--files", refused, fine, "title=New", "--yes"], environment: env)
        let written = try Data(contentsOf: URL(fileURLWithPath: refused))
        if written == before {
            #expect(r.status == 1, "\(r.out) \(r.stderr)")
            #expect(r.stderr.contains("v1.mp3: the write would also change") && r.stderr.contains("ARTIST"), "\(r.stderr)")
        } else {
            // Written: then nothing but the title may have changed (the fix of the writer itself).
            let original = dir.appendingPathComponent("v1-original.mp3").path
            try before.write(to: URL(fileURLWithPath: original))
            #expect(try TagWorkspace.compare(original, refused, asked: "title").differences.isEmpty)
        }
        #expect(try TagFixtures.mutagen(fine)["title"] as? [String] == ["New"])
    }
}

/// Issue 46: a big-endian RIFX WAV (TagLib reads it, saves nothing): "1 file already as asked", exit 0.
@Suite final class NothingWrittenTests: TagWorkspace {
    @Test func aRIFXWAVIsRefusedWithAReason() throws {
        let wav = dir.appendingPathComponent("le.wav").path, path = dir.appendingPathComponent("be.wav").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "pcm_s16le",
                                                "-fflags", "+bitexact", "-metadata", "title=Old", wav])
        #expect(r.status == 0)
        // The same file as RIFX: every size and format field big-endian, the samples byte-swapped.
        try TagFixtures.python("""
            import struct
            d = open(p.replace("be.wav", "le.wav"), "rb").read()
            out = bytearray(b"RIFX" + struct.pack(">I", struct.unpack("<I", d[4:8])[0]) + b"WAVE"); pos = 12
            while pos + 8 <= len(d):
                cid = d[pos:pos + 4]; size = struct.unpack("<I", d[pos + 4:pos + 8])[0]; body = d[pos + 8:pos + 8 + size]
                if cid == b"fmt ": body = struct.pack(">HHIIHH", *struct.unpack("<HHIIHH", body[:16])) + body[16:]
                if cid == b"data": body = b"".join(body[i + 1:i + 2] + body[i:i + 1] for i in range(0, len(body) - 1, 2))
                out += cid + struct.pack(">I", size) + body + (b"\\0" if size & 1 else b""); pos += 8 + size + (size & 1)
            open(p, "wb").write(out)
            """, path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let report = writer.edit(path, TagEdit(changes: [TagChange(argument: "title=New")!]), write: true)
        #expect(report.outcome == .failed, "\(report.outcome)")
        #expect(report.error?.contains("saved nothing") == true, "\(report.error ?? "")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
