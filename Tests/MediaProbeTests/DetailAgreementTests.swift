import Foundation
@testable import MediaProbe
import MediaModel
import Testing

/// The scanner reads with `.library` (TagLib alone where it suffices); `mlib info` with `.streams`. The
/// index must hold what `info` shows: same properties, same errors, same partial flags, on every fixture.
struct DetailAgreementTests {
    @Test(arguments: FixtureTests.expectations)
    func libraryDetailAgreesWithStreams(_ e: FixtureTests.Expectation) throws {
        let path = MediaPath(FixtureTests.fixtures.appendingPathComponent(e.file).path)
        let full: Result<ProbeResult, ProbeError> = Result { () throws(ProbeError) in try MediaProbe.probe(path) }
        let lean: Result<ProbeResult, ProbeError> = Result { () throws(ProbeError) in try MediaProbe.probe(path, detail: .library) }
        switch (full, lean) {
        case (.failure(let a), .failure(let b)):
            #expect(a.code == b.code, "\(e.file)")
        case (.success(let a), .success(let b)):
            #expect(a.isPartial == b.isPartial, "\(e.file): partial")
            for p in MediaProperty.allCases {
                let x = a.item[p], y = b.item[p]
                switch p {
                default:
                    #expect(x == y, "\(e.file): \(p.rawValue) \(String(describing: x)) vs \(String(describing: y))")
                }
            }
        default:
            Issue.record("\(e.file): \(full) vs \(lean)")
        }
    }

    @Test func theFastPathIsTakenWhereItApplies() throws {
        func lean(_ file: String) -> Bool {
            let path = MediaPath(FixtureTests.fixtures.appendingPathComponent(file).path)
            guard let file = try? MediaFile(path), let known = FormatSniffer.tagLibComplete(file) else { return false }
            return MediaProbe.tagLibOnly(file, known) != nil
        }
        for file in ["mp3-id3v24.mp3", "mp3-notags.mp3", "ogg-vorbis.ogg", "opus.opus", "wav-riff-info.wav",
                     "wavpack-ape.wv", "bad/ogg-named.mp3", "flac-vorbis-cover.flac", "bad/truncated.flac"] {
            #expect(lean(file), "\(file)")
        }
        for file in ["m4a-alac.m4a", "video-mpeg4-opus.mkv", "bad/random.mp3"] {
            #expect(!lean(file), "\(file)")
        }
    }
}
