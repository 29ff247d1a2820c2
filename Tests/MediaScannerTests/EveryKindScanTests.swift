import Foundation
@testable import MediaIndex
@testable import MediaScanner
import MediaModel
import PostgresTestServer
import Testing
import TestSupport

/// Issue 49's "Done when": a scan of a folder holding one file of every kind the issue names indexes them
/// all, on both stores: no failures, the undecodable ones (AC-4, MPEG-H, float PCM, IAMF, DTS-UHD, 32-bit
/// FLAC in FFmpeg 5.1, an MP4 and a Matroska file of a subtitle track alone, a CENC-encrypted track, Dolby
/// Vision AV1) as `decodable: false`, each with the title, length and date the probe tests hold it to (an
/// MP3 of LAME delay and padding alone: 0 s). The files are made here (`ReadingRoundThreeFiles.everyKind`),
/// none checked in.
struct EveryKindScanTests {
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil, "ffmpeg is not installed"), arguments: Store.available)
    func aScanOfOneFileOfEveryKindIndexesThemAll(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let made = try ReadingRoundThreeFiles.everyKind(in: box.music)
        #expect(made.count == 35, "\(made.map(\.name))")
        let summary = try await box.scan()
        #expect(summary.added == made.count, "\(summary)")
        let index = try box.store()
        let failures = try index.failures()
        #expect(failures.isEmpty, "\(failures)")
        for file in made {
            let url = box.music.appendingPathComponent(file.name)
            let item = try #require(try index.item(path: MediaPath(url.path)), "\(file.name) is not indexed")
            #expect(item[.isDecodable] == .bool(file.decodable), "\(file.name): \(item[.undecodableReason].debugDescription)")
            #expect((item[.undecodableReason] == nil) == file.decodable, "\(file.name)")
            if let title = file.title { #expect(item.title == title, "\(file.name): \(item.title ?? "no title")") }
            if let seconds = file.seconds {
                #expect(abs(item.playbackDuration - seconds) < 0.05, "\(file.name): \(item.playbackDuration), not \(seconds)")
            }
            if let date = file.releaseDate { #expect(item[.releaseDate] == .text(date), "\(file.name): \(item[.releaseDate].debugDescription)") }
        }
        let undecodable = try index.items(MediaQuery(filter: try PredicateParser.parse("decodable == NO"))).map(\.path)
        #expect(Set(undecodable) == Set(made.filter { !$0.decodable }.map { MediaPath(box.music.appendingPathComponent($0.name).path) }))
    }
}
