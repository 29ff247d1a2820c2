import Foundation
@testable import MediaIndex
@testable import PostgresStore
@testable import SQLiteStore
import MediaModel
import Library
import PostgresTestServer
import Testing

/// Issue 38: the query language names the host whose files items are (`host:NAME`, `HOST "NAME"`), on a
/// real PostgreSQL library of two hosts and a share, and on SQLite (one host).
struct HostTermTests {
    @Test func theShortAndFormatFormsParseAndRoundTrip() throws {
        #expect(try ShortQueryParser.parse(term: "host:alpha") == .host("alpha"))
        #expect(try ShortQueryParser.parse(term: "^host:this") == .not(.host("this")))
        #expect(throws: QueryError.self) { try ShortQueryParser.parse(term: "host:") }
        #expect(try PredicateParser.parse(#"HOST "alpha" AND year > 1990"#) == .and([.host("alpha"), try PredicateParser.parse("year > 1990")]))
        let p: MediaModel.Predicate = .and([.not(.host("b e\"ta")), .search("x")])
        #expect(try PredicateParser.parse(p.description) == p, "\(p.description)")
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func hostTermsSelectTheItemsOfAHostAShareOrThisHost() throws {
        let locator = try #require(PostgresTestServer.shared).makeDatabase("hostterm")
        let location = try PostgresLocation(url: locator)
        let alpha = try PostgresIndex(location, identity: HostIdentity(id: "alpha-id-0001", name: "alpha"))
        let beta = try PostgresIndex(location, identity: HostIdentity(id: "beta-id-0002", name: "Beta"))
        try alpha.addRoot(MediaPath("/music"))
        try alpha.apply([.add(sampleItem("/music/a.mp3", title: "A"), stamp(1000), fingerprint: 7)], generation: 1)
        try beta.addRoot(MediaPath("/music"))
        try beta.apply([.add(sampleItem("/music/b.mp3", title: "B"), stamp(1001), fingerprint: 8)], generation: 1)
        let nas = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-hostterm-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: nas, withIntermediateDirectories: true)
        try alpha.joinShare("music-nas", at: MediaPath(nas))
        try alpha.shareStore(SharedRoot(name: "music-nas", path: MediaPath(nas)))
            .apply([.add(sampleItem(nas + "/n.mp3", title: "N"), stamp(1002), fingerprint: 9)], generation: 1)

        func titles(_ store: PostgresIndex, _ terms: String...) throws -> [String] {
            try store.items(MediaQuery(filter: try ShortQueryParser.parse(terms: terms))).compactMap(\.title).sorted()
        }
        #expect(try titles(alpha, "host:alpha") == ["A"])
        #expect(try titles(alpha, "host:beta") == ["B"], "names in any case")
        #expect(try titles(alpha, "host:beta-id") == ["B"], "an id prefix")
        #expect(try titles(alpha, "host:bet") == [], "a prefix of 3 is no id")
        #expect(try titles(alpha, "host:music-nas") == ["N"], "a share by its name")
        #expect(try titles(alpha, "host:this") == ["A", "N"], "this host and the shares it joined")
        #expect(try titles(beta, "host:this") == ["B"])
        #expect(try titles(alpha, "^host:beta") == ["A", "N"])
        #expect(try titles(alpha, "host:this", "title:N") == ["N"])
        #expect(try alpha.count(MediaQuery(filter: try ShortQueryParser.parse(terms: ["host:beta"]))) == 1)
        #expect(throws: QueryError.self) { try alpha.items(MediaQuery(filter: try PredicateParser.parse(#"HOST "alpha" OR title == "B""#))) }
        // A smart playlist stores the term and answers it on every host.
        try alpha.createPlaylist(name: "beta's", smart: (predicate: MediaModel.Predicate.host("beta").description, sort: nil, limit: nil))
        #expect(try Library(store: alpha).items(ofPlaylist: "beta's")?.compactMap(\.title) == ["B"])
        #expect(try Library(store: beta).items(ofPlaylist: "beta's")?.compactMap(\.title) == ["B"])
    }

    @Test func onSQLiteThisHostIsEveryItemAndAnotherNone() throws {
        let index = try SQLiteIndex(inMemory: ())
        try index.add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B")])
        func count(_ term: String) throws -> Int { try index.count(MediaQuery(filter: try ShortQueryParser.parse(term: term))) }
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, 255)
        #expect(try count("host:this") == 2)
        #expect(try count("host:\(String(cString: buffer))") == 2)
        #expect(try count("host:no-such-host") == 0)
        #expect(try count("^host:no-such-host") == 2)
    }
}
