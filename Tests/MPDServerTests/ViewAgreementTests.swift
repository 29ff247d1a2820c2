import Foundation
import Library
import MediaIndex
import SQLiteStore
import PostgresStore
import MediaModel
@testable import MPDServer
import PostgresTestServer
import Testing

/// The view's filters give the store's answers: MPD filters of both syntaxes and both modes, compiled by
/// the server's `FilterCompiler`, run by `ViewFilter` over a `LibrarySnapshot` and by the store's SQL,
/// on SQLite and (when installed) PostgreSQL.
@Suite(.serialized, .enabled(if: toolExists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct ViewAgreementTests {
    static let exact: [[String]] = [
        ["artist", "Sine Wave"], ["album", "Long Tones"], ["artist", ""], ["title", "Tone 1"], ["track", "1"], ["track", "01"],
        ["albumartist", "Sine Wave"], ["genre", ""], ["date", ""], ["artist", "кино"],
        ["(artist contains 'Sine')"], ["(!(artist == 'Sine Wave'))"], ["(title =~ '^T.*[0-9]$')"], ["(title !~ 'one')"],
        ["(albumartist == 'Sine Wave')"], ["(AlbumArtist != 'x')"], ["(track == '1')"], ["(disc == '')"],
        ["((artist starts_with 'S') AND (track != '2'))"], ["(base 'Long')"], ["(base 'Album1')"], ["(file == 'Long/tone1.flac')"],
        ["(composer contains '')"], ["(modified-since '2000-01-01T00:00:00Z')"], ["(artist == 'Sine Wave')", "(track == '2')"],
    ]
    static let search: [[String]] = [
        ["artist", "кино"], ["any", "tone"], ["any", "x"], ["genre", "a"], ["title", "TONE"], ["album", ""], ["any", "é"],
        ["(artist contains 'sine')"], ["(title starts_with 'to')"],
    ]

    static func check(_ store: any LibraryStore) throws {
        let view = try LibrarySnapshot.build(from: store, schema: .mpd, version: nil)
        #expect(view.count == 7)
        let uris = LibraryURIs(roots: try store.roots())
        for (mode, cases) in [(FilterCompiler.Mode.exact, exact), (.search, search)] {
            for filter in cases {
                let compiled = try FilterCompiler(mode: mode, uris: uris).compile(filter)
                let fromView = Set((0..<Int32(view.count)).filter(try compiled.test(in: view)).map { view.ids[Int($0)] })
                // Raw-tag terms (`any` has them) have no SQL: the items' own test stands for the store's.
                let itemTest = try compiled.test()
                let fromItems = Set(try store.items(MediaQuery(filter: .all)).filter(itemTest).map(\.persistentID))
                #expect(fromView == fromItems, "\(mode) \(filter)")
                if let predicate = compiled.predicate {
                    #expect(fromView == Set(try store.itemIDs(MediaQuery(filter: predicate))), "\(mode) \(filter)")
                }
            }
        }
    }

    @Test func sqlite() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        try Self.check(try SQLiteIndex(path: library.library, mode: .existing))
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func postgreSQL() throws {
        let postgres = try #require(PostgresTestServer.shared)
        let library = try TestLibrary(library: try postgres.makeDatabase("view"))
        defer { library.remove() }
        try Self.check(try PostgresIndex(try PostgresLocation(url: library.library)))
    }
}
