import Foundation
import MediaIndex
import MediaModel
import PostgresTestServer
@testable import MediaScanner
import Testing

/// A truncated file's declared length is stored by a scan in both stores (SQLite "v15", PostgreSQL "pg v10")
/// and is queryable like any other property; a whole file has none.
struct DeclaredDurationScanTests {
    @Test(arguments: Store.available) func aScanStoresTheDeclaredDurationAndAQueryFindsIt(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let whole = box.music.appendingPathComponent("whole.flac"), cut = box.music.appendingPathComponent("cut.flac")
        try Templates.ffmpeg(["-f", "lavfi", "-i", "anoisesrc=d=5:c=pink:r=44100:a=0.3", "-metadata", "title=Whole", "-c:a", "flac", whole.path])
        let data = try Data(contentsOf: whole)
        try data.prefix(data.count / 2).write(to: cut)
        #expect(try await box.scan().added == 2)

        let index = try box.store()
        let cutItem = try #require(try index.item(path: MediaPath(cut.path)))
        #expect(abs((cutItem[.declaredDuration]?.real ?? 0) - 5) < 0.01)
        #expect((cutItem.playbackDuration ?? 5) < 3 && cutItem[.isPartial] == .bool(true))
        #expect(try index.item(path: MediaPath(whole.path))?[.declaredDuration] == nil)

        let found = try index.items(MediaQuery(filter: try PredicateParser.parse("declaredDuration > 4")))
        #expect(found.map(\.path) == [MediaPath(cut.path)])
        let byAlias = try index.items(MediaQuery(filter: try PredicateParser.parse("declared >= 5")))
        #expect(byAlias.map(\.path) == [MediaPath(cut.path)])
    }
}
