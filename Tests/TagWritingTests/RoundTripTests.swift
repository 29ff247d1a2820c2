import Foundation
import Testing
import TestSupport
@testable import TagWriting
import MediaModel
import MediaProbe

/// Every writable format: set, append, remove, Unicode, multi-valued, a picture, read back by mutagen, with
/// the decoded audio and the frames mlib does not know unchanged, no tag type added.
@Suite final class RoundTripTests: TagWorkspace {
    static func changes(_ arguments: [String]) -> [TagChange] { arguments.map { TagChange(argument: $0)! } }

    @Test(arguments: TagFixtures.formats)
    func roundTrip(_ format: TagFixtures.Format) throws {
        let path = try TagFixtures.make(format, in: dir)
        if format.fileExtension == "mp3" {
            // Frames mlib's map does not show: a private frame and a chapter must survive every edit.
            try TagFixtures.python("""
                from mutagen.id3 import ID3, PRIV, CHAP, TIT2
                t = ID3(p)
                t.add(PRIV(owner="mlib-test", data=b"\\x00\\x01secret"))
                t.add(CHAP(element_id="ch1", start_time=0, end_time=500, sub_frames=[TIT2(text=["Intro"])]))
                t.save(p, v2_version=t.version[1])
                """, path)
        }
        let id3Before = try TagFixtures.mutagen(path)["id3"] as? String
        let audio = try TagFixtures.audioMD5(path)

        var report = writer.edit(path, TagEdit(changes: Self.changes(["title=Ünïcödé 日本 — ok", "artist+=Second Artist",
                                                                        "album!", "genre=Rock", "track=3", "albumTrackCount=12"]),
                                               picture: (TagFixtures.png, "image/png")), write: true)
        #expect(report.error == nil, "\(report.error ?? "")")
        #expect(report.unsupported.isEmpty, "unsupported: \(report.unsupported)")
        var tags = try TagFixtures.mutagen(path)
        #expect(tags["title"] as? [String] == ["Ünïcödé 日本 — ok"])
        // ASF's Author is one string: the values joined as mlib's reader splits them.
        #expect(tags["artist"] as? [String] == (format.name == "asf" ? ["Someone; Second Artist"] : ["Someone", "Second Artist"]))
        #expect(tags["album"] == nil)
        #expect(tags["genre"] as? [String] == ["Rock"])
        #expect(tags["pictures"] as? Int == 1)
        #expect(try TagFixtures.audioMD5(path) == audio)
        if format.fileExtension == "mp3" {
            #expect(tags["priv"] as? Int == 1)
            #expect(tags["chap"] as? Int == 1)
            #expect(tags["id3"] as? String == id3Before)
            #expect(!TagFixtures.hasID3v1(path))
        }

        // A second edit: the picture goes, a value is removed from a multi-valued field, a custom key.
        report = writer.edit(path, TagEdit(changes: Self.changes(["artist=Only One", "MOOD=calm"]), removePictures: true), write: true)
        #expect(report.error == nil, "\(report.error ?? "")")
        tags = try TagFixtures.mutagen(path)
        #expect(tags["artist"] as? [String] == ["Only One"])
        #expect(tags["pictures"] as? Int ?? 0 == 0)
        #expect(tags["title"] as? [String] == ["Ünïcödé 日本 — ok"])
        #expect(try TagFixtures.audioMD5(path) == audio)
        if format.fileExtension == "mp3" {
            #expect(tags["priv"] as? Int == 1)
            #expect(tags["chap"] as? Int == 1)
            #expect(tags["id3"] as? String == id3Before)
            #expect(!TagFixtures.hasID3v1(path))
        }
        // Nothing left behind: no journal entry, no copy.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("journal").path)) ?? [] == [])
    }

    /// A WAV tagged in RIFF INFO only keeps INFO only (no ID3v2 chunk added); INFO has no place for a mood.
    @Test func wavInfoStaysInfo() throws {
        let format = TagFixtures.formats.first { $0.name == "wav" }!
        let path = dir.appendingPathComponent("info.wav").path
        let r = try TestSupport.ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "pcm_s16le",
                                                            "-fflags", "+bitexact", "-metadata", "title=Old", path])
        #expect(r.status == 0)
        _ = format
        let audio = try TagFixtures.audioMD5(path)
        let report = writer.edit(path, TagEdit(changes: Self.changes(["title=New Title", "MOOD=calm"])), write: true)
        #expect(report.error == nil)
        #expect(report.unsupported == ["MOOD"])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.range(of: Data("ID3 ".utf8)) == nil && data.range(of: Data("id3 ".utf8)) == nil)
        #expect(data.range(of: Data("New Title".utf8)) != nil)
        #expect(try TagFixtures.audioMD5(path) == audio)
    }

    /// Padding larger than TagLib keeps (over 1% of the file: it shrinks it and rewrites the whole file):
    /// the padding is kept and the edit written in place, as the tag fits.
    @Test(arguments: ["flac", "mp3-id3v2.4", "mp3-id3v2.3"])
    func largePaddingIsKept(_ name: String) throws {
        let format = TagFixtures.formats.first { $0.name == name }!
        let path = try TagFixtures.make(format, in: dir)
        try TagFixtures.python("import mutagen\nf = mutagen.File(p)\nkw = {'v2_version': f.tags.version[1]} if p.endswith('.mp3') else {}\nf.save(padding=lambda info: 16384, **kw)", path)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        let audio = try TagFixtures.audioMD5(path)
        let report = writer.edit(path, TagEdit(changes: Self.changes(["title=Padded Title", "MOOD=calm"])), write: true)
        #expect(report.error == nil)
        #expect(report.outcome == .inPlace)
        #expect(report.bytesWritten < 200)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == size)
        let tags = try TagFixtures.mutagen(path)
        #expect(tags["title"] as? [String] == ["Padded Title"])
        #expect(tags["artist"] as? [String] == ["Someone"])
        #expect(try TagFixtures.audioMD5(path) == audio)
    }

    /// The same padded edit reads the tag, not the audio: TagLib's shrunken tag is grown back from the tag's
    /// bytes alone (`OverlayStream::split`), and an ID3v1 tag at the end, changed too, is a patch of its own.
    /// Bytes read counted by the kernel for this thread (`prepare` renders on the caller's thread); before,
    /// the whole new file was made and compared with the old (twice the file's size read).
    @Test(arguments: ["flac", "mp3-id3v2.4", "mp3-id3v2.3"])
    func aPaddedEditReadsTheTagNotTheAudio(_ name: String) throws {
        let format = TagFixtures.formats.first { $0.name == name }!
        let path = try TagFixtures.make(format, in: dir, seconds: 20)
        let v1 = format.fileExtension == "mp3"
        try TagFixtures.python("""
            import mutagen
            f = mutagen.File(p)
            kw = {'v2_version': f.tags.version[1], 'v1': 2} if p.endswith('.mp3') else {}
            f.save(padding=lambda info: 16384, **kw)
            """, path)
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let before = try bytesReadByThisThread()
        let (report, rendering) = writer.prepare(MediaPath(path), TagEdit(changes: Self.changes(["title=Padded Title"])), render: true)
        let read = try bytesReadByThisThread() - before
        #expect(report.error == nil)
        guard case .patches(let patches)? = rendering?.rendering else {
            Issue.record("not an edit in place: \(String(describing: rendering?.rendering))")
            return
        }
        #expect(read < 128 << 10, "read \(read) bytes of a \(size)-byte file")
        // Where the title is: the ID3v2 tag or the Vorbis comment at the start, and ID3v1's at the end.
        #expect(patches.contains { $0.offset < 20_000 })
        #expect(patches.contains { $0.offset >= Int64(size - 128) } == v1)
        let audio = try TagFixtures.audioMD5(path)
        #expect(writer.edit(path, TagEdit(changes: Self.changes(["title=Padded Title"])), write: true).outcome == .inPlace)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == size)
        #expect(try TagFixtures.audioMD5(path) == audio)
        let tags = try TagFixtures.mutagen(path)
        #expect(tags["title"] as? [String] == ["Padded Title"])
        if v1 {
            let last = try Data(contentsOf: URL(fileURLWithPath: path)).suffix(128)
            #expect(last.starts(with: Data("TAGPadded Title".utf8)))
        }
    }

    /// A write hands its check's read of the written file to the index refresh (`TagFileReport.probed`), in
    /// place and rewritten: that read is the file as it is now (its inode, size and time; the new title),
    /// equal to reading it again.
    @Test(arguments: ["flac", "mp3-id3v2.4"], [false, true])
    func theCheckReadIsTheWrittenFile(_ name: String, rewritten: Bool) throws {
        let format = TagFixtures.formats.first { $0.name == name }!
        let path = try TagFixtures.make(format, in: dir)
        // Lyrics too long for the padding ffmpeg leaves: the file is rewritten.
        let edit = rewritten ? ["title=Checked", "lyrics=" + String(repeating: "la ", count: 20_000)] : ["title=Checked"]
        var writer = self.writer
        writer.readsForRefresh = true           // as `Library.writeTags` writes
        let report = writer.edit(path, TagEdit(changes: Self.changes(edit)), write: true)
        #expect(report.outcome == (rewritten ? .rewritten : .inPlace))
        let probed = try #require(report.probed)
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(probed.stillDescribes(size: Int64(st.st_size), mtimeNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
                                      inode: Int64(st.st_ino)))
        #expect(probed.result.item[.title] == .text("Checked"))
        var again = try MediaProbe.probe(MediaPath(path), detail: .library)
        var handed = probed.result
        again.item.path = handed.item.path      // the copy was read under another name
        handed.item[.modificationDate] = again.item[.modificationDate]
        #expect(handed.item == again.item)
        #expect(handed.lyrics == again.lyrics)
        // The content identity the refresh stores, from the same read: so the refresh need not open the file.
        #expect(probed.identity == ContentIdentity(try MediaFile(MediaPath(path))))
        // Files written alone (`mlib tag --files`): no refresh follows, so no identity is made for it.
        let alone = self.writer.edit(path, TagEdit(changes: Self.changes(["title=Alone"])), write: true)
        #expect(alone.outcome == .inPlace || alone.outcome == .rewritten)
        #expect(alone.probed != nil && alone.probed?.identity == nil)
    }
}
