import Foundation
import Testing
import TestSupport
@testable import TagWriting

/// Issue 46, the fields the check (`WriteCheck`) could only refuse to change: each file is made here in the
/// shape a real tagger leaves, and `title=… comment=…` must now be written (not refused) with every other
/// field mutagen and ffprobe read kept as it was.
@Suite final class KeptFieldsTests: TagWorkspace {
    @discardableResult
    func expectWritten(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TagFileReport {
        let report = try expectOnlyAsked(path, sourceLocation: sourceLocation)
        #expect([.inPlace, .rewritten].contains(report.outcome), "\(report.outcome): \(report.error ?? "")", sourceLocation: sourceLocation)
        return report
    }

    /// An Ogg Vorbis file with a legacy `COVERART` field (base64, MIME in `COVERARTMIME`), as old taggers
    /// and mutagen write it: TagLib turned it into a METADATA_BLOCK_PICTURE with MIME type "image/", which
    /// FFmpeg rejects; mlib's own reader sees the same picture either way, so the check did not notice.
    @Test func aLegacyOggCoverArtStaysAsItWas() throws {
        let path = try TagFixtures.make(TagFixtures.formats.first { $0.name == "ogg-vorbis" }!, in: dir, name: "coverart")
        try TagFixtures.python("""
            import mutagen, base64
            png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000" "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082")
            f = mutagen.File(p); f["COVERART"] = [base64.b64encode(png).decode()]; f["COVERARTMIME"] = ["image/png"]; f.save()
            """, path)
        try expectWritten(path)
        let tags = try TagFixtures.mutagen(path)
        #expect(tags["metadata_block_picture"] == nil, "\(tags.keys.sorted())")
    }

    /// An MP3 whose ID3v2.3 tag has an extended header, with an ID3v1 tag behind the audio holding other
    /// values: TagLib 1.13 read no frames behind the header and the check refused the write (before it, the
    /// edit replaced the v2 artist and album by the v1 values). mutagen writes it.
    @Test func anID3v23ExtendedHeaderIsReadAndWritten() throws {
        let path = try TagFixtures.extendedHeaderMP3(in: dir)
        let audioStart = try Data(contentsOf: URL(fileURLWithPath: path)).count
        try expectWritten(path)
        let tags = try TagFixtures.mutagen(path)
        #expect(tags["artist"] as? [String] == ["Interpret v2"], "\(tags)")
        // Written in place: the audio has not moved.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == audioStart)
    }

    /// An MP3 with 100 kB of junk between its ID3v2 tag and its first frame (ExoPlayer's test data has
    /// such files), whose tag outgrows its room: the rewrite's copy, read under its own name
    /// (`.NAME.mlib-tag-TOKEN`), lost the junk-skipping that only a name of MPEG audio gets, and the check
    /// refused the write (tag types, length and partial read "changed"). mutagen writes it.
    @Test func anMP3WithJunkBeforeItsFirstFrameIsWritten() throws {
        let path = try TagFixtures.junkPrefixMP3(in: dir)
        let report = try expectWritten(path)
        #expect(report.outcome == .rewritten, "\(report.outcome)")
        // No link of the check's to this test's files is left (/tmp is shared: other runs' links are not ours).
        let tmp = NSTemporaryDirectory()
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp).filter { name in
            name.hasPrefix("mlib-check-")
                && (try? FileManager.default.destinationOfSymbolicLink(atPath: tmp + "/" + name))?.hasPrefix(dir.path) == true
        }
        #expect(left == [])
    }

    /// A WAV with both RIFF INFO (FFmpeg's) and an ID3v2 chunk (mutagen's) holding other values: TagLib's
    /// setProperties gave INFO the ID3v2 tag's map, its own artist replaced and its date, genre, album
    /// and track removed; the check refused the write. INFO now changes in the fields asked only.
    @Test func aWAVsInfoAndID3KeepTheirOwnValues() throws {
        let path = dir.appendingPathComponent("both.wav").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "pcm_s16le",
                                                "-metadata", "title=Old", "-metadata", "artist=Someone", "-metadata", "date=2001",
                                                "-metadata", "genre=Rock", "-metadata", "album=Album", "-metadata", "track=1", path])
        try #require(r.status == 0, "\(r.stderr)")
        try TagFixtures.python("""
            from mutagen.wave import WAVE
            from mutagen.id3 import TIT2, TPE1, TDRC
            f = WAVE(p); f.add_tags(); f.tags.add(TIT2(text=["Old"])); f.tags.add(TPE1(text=["Someone ID3"])); f.tags.add(TDRC(text=["2001-02-21"])); f.save()
            """, path)
        try expectWritten(path)
    }

    /// A WAV tagged in RIFF INFO only (FFmpeg's), its date a full date and its track "5/8": TagLib 1.13's INFO
    /// tag has no property map of its own and went through its integer year and track, so the write gave
    /// "1978" and "5"; the check refused it (97 such files in /work/corpora/c2k).
    @Test func aWAVsInfoDateAndTrackStayAsText() throws {
        let path = dir.appendingPathComponent("info.wav").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "pcm_s16le",
                                                "-metadata", "title=Old", "-metadata", "artist=Someone", "-metadata", "date=1978-02-28",
                                                "-metadata", "track=5/8", path])
        try #require(r.status == 0, "\(r.stderr)")
        try expectWritten(path)
    }

    /// Files without any tag (a WAV, an Opus and a FLAC as FFmpeg writes them with no metadata): the edit
    /// adds the tag that holds the fields asked, which the check counted as a changed tag type.
    @Test func anUntaggedFileGetsATag() throws {
        for ext in ["wav", "opus", "flac"] {
            let path = dir.appendingPathComponent("untagged.\(ext)").path
            let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-map_metadata", "-1",
                                                    "-fflags", "+bitexact", "-flags:a", "+bitexact", path])
            try #require(r.status == 0, "\(r.stderr)")
            try expectWritten(path)
        }
    }

    /// An MP3 as /work/shared/tools/make-corpus.sh makes an untagged one (ffmpeg, bitexact, its metadata
    /// dropped: an ID3v2.4 tag of padding alone, "Lavf" in the Info frame): the reader showed FFmpeg's
    /// ENCODER while the tag was empty and none once it held the title, and the check refused the write
    /// (12 such files in /work/corpora/c2k; mutagen writes them).
    @Test func anMP3WithAnEmptyID3TagIsWritten() throws {
        let exact = ["-fflags", "+bitexact", "-flags:a", "+bitexact"]
        let source = dir.appendingPathComponent("source.mp3").path, path = dir.appendingPathComponent("empty.mp3").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=2", "-ac", "2", "-c:a", "libmp3lame",
                                                "-b:a", "128k"] + exact + [source])
        try #require(r.status == 0, "\(r.stderr)")
        let c = try ChildProcess.run("ffmpeg", ["-v", "error", "-i", source, "-map", "0", "-c", "copy", "-map_metadata", "-1"] + exact + [path])
        try #require(c.status == 0, "\(c.stderr)")
        try expectWritten(path)
    }

    /// A WavPack file whose APEv2 tag holds the date as `Date` (mutagen, foobar2000): TagLib's property map
    /// wrote it back as `YEAR`, removing the `Date` that mutagen and ffprobe read.
    @Test func aWavPackAPEDateIsNotRenamed() throws {
        let path = try TagFixtures.make(TagFixtures.formats.first { $0.name == "wavpack" }!, in: dir, name: "date")
        try TagFixtures.python("""
            from mutagen.apev2 import APEv2
            a = APEv2(p); a["Date"] = "2001-02-21"; a["Catalog"] = "CAT-2"; a.save(p)
            """, path)
        try expectWritten(path)
    }

    /// An M4A with a media kind (`stik`) and an HD flag of 1080p (`hdvd` = 2), as iTunes and mutagen write
    /// them: TagLib saved the flag as a boolean, 1 (720p).
    @Test func mp4MediaKindAndHDFlagStay() throws {
        let path = try TagFixtures.make(TagFixtures.formats.first { $0.name == "m4a" }!, in: dir, name: "kind")
        try TagFixtures.python("""
            from mutagen.mp4 import MP4
            f = MP4(p); f["stik"] = [1]; f["hdvd"] = [2]; f["\\xa9too"] = ["Encoder X"]; f.save()
            """, path)
        try expectWritten(path)
    }

    /// A WMA written by FFmpeg: its title is both ASF's Title and an extended `title` attribute, and its
    /// date an extended `date` attribute. The edit changed Title alone (ffprobe and every FFmpeg-based
    /// player kept showing the old title) and gave the date a second attribute, WM/Year.
    @Test func anFFmpegWMAGetsItsTitleEverywhere() throws {
        let path = dir.appendingPathComponent("ffmpeg.wma").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "wmav2",
                                                "-metadata", "title=Old", "-metadata", "artist=Someone", "-metadata", "date=2001", path])
        #expect(r.status == 0)
        try expectWritten(path)
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=title", "-of", "default=nw=1:nk=1", path])
        #expect(probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == "New Title", "\(probe.out)")
    }
}
