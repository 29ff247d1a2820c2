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
                let predicate = try FilterCompiler(mode: mode, uris: uris).compile(filter)
                let viewFilter = try ViewFilter(predicate, in: view)
                let fromView = Set((0..<Int32(view.count)).filter(viewFilter.matches).map { view.ids[Int($0)] })
                let fromStore = Set(try store.itemIDs(MediaQuery(filter: predicate)))
                #expect(fromView == fromStore, "\(mode) \(filter)")
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
