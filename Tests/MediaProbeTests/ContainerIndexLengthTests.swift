import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// Issue 49's third round: lengths a container states itself, which mlib read from an estimate instead. Each
/// file is made here (ffmpeg's output rewritten by a few bytes, or the bytes of a header), each read by both
/// probe paths.
struct ContainerIndexLengthTests {
    static let ffmpeg = DeclaredDurationTests.ffmpeg

    /// A VBR ASF whose header states its peak rate (as TagLib's `lossless.wma`, WMA Lossless, 3.55 s, says
    /// 1152 kb/s in 99 kB) holds every data packet its File Properties Object declares: whole, its declared
    /// length. Before: the size check at the stated rate called it truncated at 0.69 s (this file: 0.38 s).
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func aWMAWhoseHeaderStatesItsPeakRateIsWhole() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.wmaStatingItsPeakRate(dir)
        for detail in ReadingRoundThreeTests.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - 3.0) < 0.05, "\(detail): \(r.item.playbackDuration)")
            #expect(!r.isPartial, "\(detail): \(r.warnings)")
            #expect(r.item[.declaredDuration] == nil, "\(detail): \(r.item[.declaredDuration].debugDescription)")
        }
    }

    /// Musepack SV8: the stream header's sample count less its leading silence (mutagen's and TagLib's
    /// length). Before: FFmpeg's whole blocks of 4,608 × 16 samples, rounded down: 5.016 s for 5.232 s, the
    /// figures issue 49 names.
    @Test(arguments: [(230_731, 0), (230_731, 4_410)])
    func aMusepackSV8IsAsLongAsItsHeaderSays(samples: Int, silence: Int) throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("sv8.mpc")
        try Data(ReadingRoundThreeFiles.musepackSV8(samples: samples, silence: silence)).write(to: url)
        let expected = Double(samples - silence) / 44100
        for detail in ReadingRoundThreeTests.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - expected) < 0.001, "\(detail): \(r.item.playbackDuration), header \(expected)")
            #expect(r.item[.sampleRate]?.integer == 44100 && r.item[.channels]?.integer == 2, "\(detail)")
            #expect(r.item[.audioCodec] == .text("musepack8"), "\(detail)")
        }
    }

    /// MP3s under 0.15 s (issue 49 names three with no duration): LAME's Info header gives the length less the
    /// encoder's delay and padding, to the sample. These read so on main already (session 15 holds it here);
    /// ffprobe and mutagen count whole frames (0.052 s for 0.01 s).
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"), arguments: [0.01, 0.06, 0.14])
    func aVeryShortMP3HasItsLength(seconds: Double) throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.ffmpeg(dir, "short.mp3", seconds: seconds, ["-c:a", "libmp3lame", "-b:a", "128k"])
        for detail in ReadingRoundThreeTests.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - seconds) < 0.001, "\(detail): \(r.item.playbackDuration)")
            #expect(!r.isPartial, "\(detail): \(r.warnings)")
        }
    }

    /// A Musepack file with an ID3v2 tag in front ("Baz artist"), an APEv2 tag ("Foo artist") and an ID3v1 tag
    /// ("Bar artist") at the end, as lofty's test assets have them (issue 49: "mlib reads Foo artist and mutagen
    /// Baz artist, check which tag wins"). The APEv2 tag is a Musepack file's own (TagLib reads it, lofty calls
    /// it the primary tag); mutagen takes a file that starts with "ID3" for an MP3 (on this file it finds no
    /// MPEG frame), ffprobe shows the ID3v2 tag. The stream header is found after the ID3v2 tag. Before: the
    /// same tags, 5.016 s.
    @Test func aMusepackFileTakesItsAPEv2TagAndFindsItsHeaderAfterAnID3v2Tag() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("tagged.mpc")
        let bytes = ReadingRoundThreeFiles.id3v24([("TIT2", "Title ID3v2"), ("TPE1", "Baz artist")])
            + ReadingRoundThreeFiles.musepackSV8(samples: 230_731, silence: 0)
            + ReadingRoundThreeFiles.apeTag([("Title", "Title APE"), ("Artist", "Foo artist")])
            + ReadingRoundThreeFiles.id3v1(title: "Title v1", artist: "Bar artist", album: "", year: "")
        try Data(bytes).write(to: url)
        for detail in ReadingRoundThreeTests.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(r.item.artist == "Foo artist" && r.item.title == "Title APE", "\(detail): \(r.item.artist ?? "none"), \(r.item.title ?? "none")")
            #expect(abs(r.item.playbackDuration - 230_731.0 / 44100) < 0.001, "\(detail): \(r.item.playbackDuration)")
        }
    }
}
