import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// Issue 49's cases that read right on main but had no test of their own: each file is made here
/// (`ReadingRoundThreeFiles+Gaps`) and read by both probe paths, held to what FFmpeg decodes or mutagen reads.
struct ReadingRoundThreeGapTests {
    static let details: [MediaProbe.Detail] = [.library, .streams]

    /// TagLib's `itunes10.mp3`'s shape: two frames whose LAME header's delay (576) and padding (1,728) are
    /// all their 2,304 samples. ffprobe (and TagLib) say 0.052 s by counting frames; FFmpeg decodes no
    /// sample and mutagen says 0.0 s. No audio is the honest length: delay and padding are not audio, as for
    /// every other LAME file, and nothing is missing, so it is whole.
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil, "ffmpeg is not installed"))
    func anMP3WhoseDelayAndPaddingAreAllItsSamplesIsNoSecondsAndWhole() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.mp3WhollyPadded(dir)
        #expect(try ReadingRoundThreeFiles.decodedSeconds(url) == 0, "FFmpeg decodes samples from it")
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(r.item.playbackDuration < 0.001, "\(detail): \(r.item.playbackDuration)")
            #expect(!r.isPartial, "\(detail): \(r.warnings)")
            #expect(r.item[.audioCodec]?.text == "mp3", "\(detail): \(r.item[.audioCodec].debugDescription)")
            #expect(r.item[.sampleRate]?.integer == 44100, "\(detail)")
        }
    }

    /// ADIF AAC (built by bytes; FFmpeg has no ADIF muxer): FFmpeg 5.1 reads 0.30 s at sample rate 0 and
    /// decodes nothing. The ADIF header states a constant bit rate, and its program config element the
    /// sample rate and channels: the length is the size at that rate (as mutagen reads it, 1.044 s), within
    /// 10 ms of the 45 frames' 1.045 s.
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil, "ffmpeg is not installed"))
    func anADIFAACHasItsHeadersLengthRateAndChannels() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, seconds) = try ReadingRoundThreeFiles.adif(dir)
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - seconds) < 0.01, "\(detail): \(r.item.playbackDuration), not \(seconds)")
            #expect(r.item[.sampleRate]?.integer == 44100, "\(detail): \(r.item[.sampleRate].debugDescription)")
            #expect(r.item[.channels]?.integer == 1, "\(detail): \(r.item[.channels].debugDescription)")
            #expect(r.item[.audioCodec]?.text == "aac", "\(detail): \(r.item[.audioCodec].debugDescription)")
            #expect(!r.isPartial, "\(detail): \(r.warnings)")
        }
    }

    /// An ID3v2.3 date split over TYER (2004), TDAT ("0304": 3 April) and TIME, with an ID3v1 tag's year,
    /// as mutagen writes both: the date is the day, 2004-04-03, as mutagen reads it.
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil, "ffmpeg is not installed"))
    func anID3v23DateSplitOverTYERAndTDATWithAnID3v1YearIsTheDay() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.combinedDateMP3(dir)
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(r.item[.releaseDate] == .text("2004-04-03"), "\(detail): \(r.item[.releaseDate].debugDescription)")
            #expect(r.item[.year] == .integer(2004), "\(detail): \(r.item[.year].debugDescription)")
            #expect(r.item.title == "Combined", "\(detail)")
        }
    }

    /// Ogg Speex (ffmpeg's libspeex, 3 s at 16 kHz): the length is the last granule position less the
    /// header's pre-skip, within 5 ms of what FFmpeg decodes.
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil, "ffmpeg is not installed"))
    func speexIsAsLongAsFFmpegDecodes() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.speex(dir)
        let decoded = try ReadingRoundThreeFiles.decodedSeconds(url)
        #expect(decoded > 2.9, "FFmpeg decodes \(decoded) s")
        for detail in Self.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - decoded) < 0.005, "\(detail): \(r.item.playbackDuration), FFmpeg decodes \(decoded)")
            #expect(r.item[.audioCodec]?.text == "speex", "\(detail): \(r.item[.audioCodec].debugDescription)")
            #expect(r.item.title == "Spoken", "\(detail)")
            #expect(!r.isPartial, "\(detail): \(r.warnings)")
        }
    }
}
