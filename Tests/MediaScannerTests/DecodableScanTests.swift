import Foundation
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
@testable import MediaScanner
import Testing
import TestSupport

/// Issue 49: a file whose container FFmpeg reads but whose codec it cannot decode (AC-4, MPEG-H 3D audio,
/// 32-bit FLAC in FFmpeg 5.1) is indexed by a scan, with `isDecodable` false and the reason, in both stores
/// (SQLite "v19", PostgreSQL "pg v16"); `decodable == NO` finds exactly those. Before: the AC-4 file was a
/// failure ("not a media file"), the others items that said nothing of it.
struct DecodableScanTests {
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil && UndecodableMedia.flac != nil, "ffmpeg or flac is not installed"),
          arguments: Store.available)
    func aScanIndexesUndecodableFilesAndAQueryFindsThem(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let ac4 = try UndecodableMedia.mp4(in: box.music, fourcc: "ac-4", config: "dac4")
        let mpegh = try UndecodableMedia.mp4(in: box.music, fourcc: "mhm1", config: "mhaC")
        let wide = try UndecodableMedia.flac32(in: box.music)
        let plain = box.music.appendingPathComponent("plain.m4a")
        try Templates.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=1:r=44100", "-metadata", "title=Plain", "-c:a", "aac", plain.path])
        let summary = try await box.scan()
        #expect(summary.added == 4, "\(summary)")

        let index = try box.store()
        let failures = try index.failures()
        #expect(failures.isEmpty, "\(failures)")
        let item = { (url: URL) throws -> MediaItem in try #require(try index.item(path: MediaPath(url.path)), "\(url.lastPathComponent)") }
        let a = try item(ac4)
        #expect(a[.isDecodable] == .bool(false) && a[.undecodableReason] == .text("this FFmpeg cannot decode ac-4"))
        #expect(a.title == "Four Sees" && abs(a.playbackDuration - 0.76) < 0.03 && a[.audioCodec] == .text("ac-4"))
        #expect(try item(mpegh)[.undecodableReason] == .text("this FFmpeg cannot decode mpegh_3d_audio"))
        // 32-bit FLAC: FFmpeg 6.1 and later decode it; Debian 12's 5.1 does not. Its length is STREAMINFO's.
        let w = try item(wide)
        #expect(abs(w.playbackDuration - 1) < 0.001 && w[.isPartial] == .bool(false) && w.title == "Thirty-two")
        let wideDecodes = w[.isDecodable] == .bool(true)
        #expect(w[.undecodableReason] == (wideDecodes ? nil : .text("this FFmpeg cannot decode 32-bit FLAC")))
        let p = try item(plain)
        #expect(p[.isDecodable] == .bool(true) && p[.undecodableReason] == nil)

        let undecodable = try index.items(MediaQuery(filter: try PredicateParser.parse("decodable == NO"))).map(\.path)
        let expected = [ac4, mpegh] + (wideDecodes ? [] : [wide])
        #expect(Set(undecodable) == Set(expected.map { MediaPath($0.path) }))
        let decodable = try index.items(MediaQuery(filter: try PredicateParser.parse("decodable == YES"))).count
        #expect(decodable == 4 - expected.count)

        // A rescan keeps them, unchanged.
        let again = try await box.scan()
        #expect(again.added == 0 && again.updated == 0 && again.removed == 0, "\(again)")

        // As a library upgraded from v17 / pg v14 holds them: main's mlib indexed such files too, and the step's
        // default calls every row decodable. The next scan reads them again (readerVersion 5): the truth, the
        // same ids, the user data kept.
        let ids = try expected.map { try item($0).persistentID }
        _ = try index.setUserData(.playCount, to: 7, ids: [ids[0]])
        let statement = #"UPDATE items SET "isDecodable" = 1, "undecodableReason" = NULL, reader_version = 4"#
        if let sqlite = index as? SQLiteIndex {
            try sqlite.write { db in try db.execute(sql: statement) }
        } else {
            let postgres = try #require(index as? PostgresIndex)
            try postgres.session.run { s in try s.execute(SQLStatement(raw: statement)) }
        }
        #expect(try index.items(MediaQuery(filter: try PredicateParser.parse("decodable == NO"))).isEmpty)
        let upgraded = try await box.scan()
        #expect(upgraded.reread == 4 && upgraded.added == 0 && upgraded.removed == 0, "\(upgraded)")
        let reread = try index.items(MediaQuery(filter: try PredicateParser.parse("decodable == NO")))
        #expect(reread.map(\.persistentID).sorted() == ids.sorted())
        #expect(try item(ac4)[.undecodableReason] == .text("this FFmpeg cannot decode ac-4") && item(ac4).playCount == 7)
    }
}
