import Foundation
@testable import MediaIndex
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// A PostgreSQL connection as mlib sets it up: no JIT, statements bounded in time, locators shown without
/// their secrets, read-only commands that never create a library, errors in mlib's words.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresSessionTests {
    static func setting(_ name: String, _ location: PostgresLocation) throws -> String? {
        try PostgresSession(location).run { s in try s.value("SELECT current_setting(\(name))").text }
    }

    /// Generated OR/IN queries made the JIT compile for a minute (`ls --count "artist:1,2,…,400"`: 63–75 s
    /// with it, 0.27 s without); no statement runs unbounded.
    @Test func everySessionHasNoJITAndAStatementTimeout() throws {
        let server = try #require(PostgresTestServer.shared)
        let location = try PostgresLocation(url: try server.makeDatabase(), environment: [:])
        #expect(try Self.setting("jit", location) == "off")
        #expect(try Self.setting("statement_timeout", location) == "5min")
        let short = try PostgresLocation(url: try server.makeDatabase(), environment: ["MLIB_POSTGRES_TIMEOUT": "1"])
        #expect(try Self.setting("statement_timeout", short) == "1s")
        let started = Date()
        let error = try #require(throws: IndexError.self) {
            try PostgresSession(short).run { s in try s.execute("SELECT pg_sleep(20)") }
        }
        #expect(-started.timeIntervalSinceNow < 10, "\(error)")
        #expect("\(error)".contains("timeout"), "\(error)")
        #expect(throws: IndexError.self) { try PostgresLocation(url: "postgres://a@h/d", environment: ["MLIB_POSTGRES_TIMEOUT": "soon"]) }
    }

    /// `ls`, `stats`, `failures`, `root list` open `.existing`: on a database without a library (even
    /// `postgres`) they say "no library at …" and leave it as it was, as on SQLite.
    @Test func aReadOnlyOpenNeverCreatesALibrary() throws {
        let server = try #require(PostgresTestServer.shared)
        let locator = try server.makeDatabase()
        let error = try #require(throws: IndexError.self) { try LibraryLocator(locator).open(.existing) }
        #expect(error == .noLibrary(database: try PostgresLocation(url: locator).description), "\(error)")
        let session = try PostgresSession(try PostgresLocation(url: locator))
        let tables = try session.run { s in try s.value("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").integer }
        let extensions = try session.run { s in try s.value("SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'").integer }
        #expect(tables == 0 && extensions == 0)
        // Once created, `.existing` opens it.
        _ = try LibraryLocator(locator).open(.create)
        #expect(try LibraryLocator(locator).open(.existing).roots().isEmpty)
    }

    /// Issue 24, case 8 on PostgreSQL: a database holding another program's tables (an `items` table too)
    /// but no mlib library is refused by every open, creating ones included, and gets no mlib table.
    @Test func anotherProgramsDatabaseIsRefusedAndLeftAsItWas() throws {
        let server = try #require(PostgresTestServer.shared)
        let locator = try server.makeDatabase()
        let session = try PostgresSession(try PostgresLocation(url: locator))
        try session.run { s in try s.execute("CREATE TABLE items (id integer PRIMARY KEY, name text)") }
        for mode in [LibraryOpenMode.existing, .create] {
            let error = try #require(throws: IndexError.self) { try LibraryLocator(locator).open(mode) }
            #expect("\(error)".contains("not an mlib library"), "\(mode): \(error)")
        }
        let tables = try session.run { s in try s.value("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").integer }
        #expect(tables == 1)
    }

    /// The "waiting for another scan of …" line, error texts, and a refused locator never show a password.
    @Test(arguments: [
        "postgres://ann:s3cret@nas/music",
        "postgresql://ann:s3cret@nas:6000/music?sslmode=disable",
        "postgres://ann@nas/music?password=s3cret",
    ])
    func locatorsAreShownWithoutTheirPassword(_ text: String) throws {
        let shown = LibraryLocator(text).description
        #expect(!shown.contains("s3cret") && shown.hasPrefix("postgres://ann@nas"), "\(shown)")
    }

    @Test(arguments: [
        ("postgres://ann:s3cret@nas:99999/music", "port"),
        ("postgres://ann:s3cret@nas:0/music", "port"),
        ("postgres://ann:s3cret@nas/music?port=54x", "port"),
        ("postgres://ann:s3cret@nas/music?sslmode=sometimes", "sslmode"),
        ("postgres://ann:s3cret@n as/mu sic", "URL"),
        ("postgres://ann:s3cret@[nas/music", "URL"),
    ])
    func aBadLocatorIsRefusedWithoutShowingItsPassword(_ text: String, _ word: String) throws {
        let error = try #require(throws: IndexError.self) { try LibraryLocator(text).open(.existing) }
        #expect(!"\(error)".contains("s3cret") && "\(error)".contains(word), "\(error)")
    }

    /// A server that is not there: one line in mlib's words, without NIO's type names.
    @Test func anUnreachableServerIsOneLineInMlibsWords() throws {
        let port = try PostgresTestServer.freePort()
        let error = try #require(throws: IndexError.self) {
            try LibraryLocator("postgres://mlib:s3cret@127.0.0.1:\(port)/music").open(.existing)
        }
        let text = "\(error)"
        #expect(text.contains("cannot reach the PostgreSQL server at 127.0.0.1:\(port)"), "\(text)")
        #expect(!text.contains("s3cret") && !text.contains("SingleConnectionFailure") && !text.contains("NIO"), "\(text)")
        #expect(!text.contains("\n"), "\(text)")
    }
}
