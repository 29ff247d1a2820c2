import Foundation
@testable import MediaIndex
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// A PostgreSQL library of the first released schema ("pg v1", Fixtures/libraries/mlib-pg-v1.sql: the step's
/// SQL frozen in the fixture, with items, user data, a failure, a root and a playlist) is migrated on open with
/// all of it kept, and then has the schema of a library made new: the migrations are frozen steps.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresUpgradeTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/libraries/mlib-pg-v1.sql").path

    /// A new database holding the fixture's library, not yet opened by mlib.
    static func firstReleaseLibrary() throws -> String {
        let server = try #require(PostgresTestServer.shared)
        let locator = try server.makeDatabase()
        let sql = try String(contentsOfFile: fixture, encoding: .utf8)
        try PostgresSession(try PostgresLocation(url: locator)).run { s in try s.script(sql) }
        return locator
    }

    @Test func aFirstReleaseLibraryUpgradesAndKeepsItsUserData() throws {
        let locator = try Self.firstReleaseLibrary()
        let index = try #require(try LibraryLocator(locator).open(.existing) as? PostgresIndex)
        #expect(try index.integrityCheck() == "ok")
        let items = try index.items(MediaQuery()).sorted { $0.path.string < $1.path.string }
        #expect(items.map(\.path.string) == ["/music/a.mp3", "/music/b.mp3", "/music/c.mp3"])
        #expect(items.map { $0[.rating]?.integer } == [5, nil, 3])
        #expect(items.map(\.playCount) == [7, 2, 0])
        #expect(items[0].tags == ["ARTIST": "Björk", "TITLE": "Jóga"])
        func titles(_ query: String) throws -> [String] {
            try index.items(MediaQuery(filter: try QueryArguments.predicate([query]))).compactMap(\.title)
        }
        #expect(try titles(#"artist == "Sjón""#) == ["Hunter"], "a multi-valued artist, by the new indexes")
        #expect(try titles(#"title ==[cd] "joga""#) == ["Jóga"])
        #expect(try titles(#"genre == "Pop""#) == ["Hunter"])
        #expect(try index.playlistItems(name: "Favourites").map(\.path.string) == ["/music/c.mp3", "/music/a.mp3"])
        #expect(try index.failures().map(\.path.string) == ["/music/x.mp3"])
        // The fixture's root is host "den"'s by name: the host of that name adopts it (issue 38's host ids).
        let den = try PostgresIndex(try PostgresLocation(url: locator), mode: .existing, identity: HostIdentity(id: "den-id", name: "den"))
        #expect(try den.roots() == [MediaPath("/music")])
        #expect(try index.session.run { x in try x.rows("SELECT DISTINCT host FROM items").compactMap { $0.text(0) } } == ["den-id"])
        // New items go on from the old ids; opening again writes nothing.
        try index.apply([.add(sampleItem("/music/d.mp3", title: "Alarm Call"), stamp(4000), fingerprint: 7)], generation: 3)
        #expect(try index.item(path: MediaPath("/music/d.mp3"))?.persistentID == 4)
        let applied = try index.session.run { s in try s.value("SELECT count(*) FROM mlib_migrations").integer }
        #expect(applied == Int64(PostgresSchema.steps.count))
    }

    /// Tables, columns (type, collation, nullability, default) and indexes of an upgraded library and a new one.
    @Test func aNewLibraryHasTheSchemaOfAnUpgradedOne() throws {
        let upgraded = try Self.firstReleaseLibrary()
        _ = try LibraryLocator(upgraded).open(.existing)
        let new = try #require(PostgresTestServer.shared).makeDatabase()
        _ = try LibraryLocator(new).open(.create)
        func schema(_ locator: String) throws -> [String] {
            let session = try PostgresSession(try PostgresLocation(url: locator))
            return try session.run { s in
                try s.rows("""
                    SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(collation_name, '-') || ' '
                        || is_nullable || ' ' || coalesce(column_default, '-') || ' ' || coalesce(generation_expression, '-')
                    FROM information_schema.columns WHERE table_schema = 'public'
                    UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
                    UNION ALL SELECT 'extension ' || extname FROM pg_extension
                    """).compactMap { $0.text(0) }.sorted()
            }
        }
        let (a, b) = (try schema(upgraded), try schema(new))
        #expect(a == b, "only upgraded: \(Set(a).subtracting(b).sorted())\nonly new: \(Set(b).subtracting(a).sorted())")
    }
}
