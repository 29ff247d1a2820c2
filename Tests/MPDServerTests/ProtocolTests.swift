import Foundation
import MediaModel
import Testing
@testable import MPDServer

/// The protocol pieces on their own: request lines, filters, queue versions.
struct ProtocolTests {
    @Test func requestLines() throws {
        let find = try RequestParser.parse("find artist \"The \\\"Best\\\" Band\" album x")
        #expect(find.name == "find" && find.arguments == ["artist", "The \"Best\" Band", "album", "x"])
        let parsed = try RequestParser.parse("add \"a b/c\\\\d.flac\"")
        #expect(parsed.name == "add" && parsed.arguments == ["a b/c\\d.flac"])
        #expect(throws: RequestParser.Failure.malformedCommand) { try RequestParser.parse("") }
        #expect(throws: RequestParser.Failure.malformedCommand) { try RequestParser.parse("Status") }
        #expect(throws: RequestParser.Failure.ack("Missing closing '\"'")) { try RequestParser.parse("find \"x") }
    }

    /// The old `TAG VALUE` pairs and the `(…)` expressions compile to the same predicate.
    @Test func bothFilterSyntaxesCompileToOnePredicate() throws {
        let uris = LibraryURIs(roots: [MediaPath("/music")])
        let exact = FilterCompiler(mode: .exact, uris: uris)
        let old = try exact.compile(["artist", "Björk", "album", "Homogenic"])
        let new = try exact.compile(["((artist == 'Björk') AND (album == \"Homogenic\"))"])
        #expect(old == new)
        #expect(old.predicate == .and([.comparison(Comparison(.artist, .equal, .value(.text("Björk")))),
                             .comparison(Comparison(.albumTitle, .equal, .value(.text("Homogenic"))))]))
        // search: substring, case-insensitive.
        let search = FilterCompiler(mode: .search, uris: uris)
        #expect(try search.compile(["any", "bj"]) == search.compile(["(any contains 'bj')"]))
        #expect(try exact.compile(["(!(genre == 'Pop'))"]).predicate == .not(.comparison(Comparison(.genre, .equal, .value(.text("Pop"))))))
        #expect(try exact.compile(["(base 'Jazz')"]).predicate
                == .comparison(Comparison(.path, .beginsWith, .value(.text("/music/Jazz/")))))
        #expect(try exact.compile(["file", "a/b.flac"]).predicate == .comparison(Comparison(.path, .equal, .value(.text("/music/a/b.flac")))))
        #expect(try exact.compile(["track", "3"]).predicate == .comparison(Comparison(.albumTrackNumber, .equal, .value(.integer(3)))))
        // mpd compares the tag's text: "03" is not track 3.
        #expect(try exact.compile(["track", "03"]).predicate == MediaPredicate.none)
        #expect(throws: MPDError.self) { try exact.compile(["artist"]) }
        #expect(throws: MPDError.self) { try exact.compile(["(artist == 'x'"]) }
        #expect(throws: MPDError.self) { try exact.compile(["nosuchtag", "x"]) }
    }

    @Test func urisWithOneAndSeveralRoots() {
        let one = LibraryURIs(roots: [MediaPath("/srv/music")])
        #expect(one.uri(of: MediaPath("/srv/music/A/b.flac")) == "A/b.flac")
        #expect(one.path(of: "A/b.flac") == MediaPath("/srv/music/A/b.flac"))
        #expect(one.path(of: "") == MediaPath("/srv/music"))
        let two = LibraryURIs(roots: [MediaPath("/srv/music"), MediaPath("/home/u/music")])
        #expect(two.topDirectories == ["music", "music (2)"])
        #expect(two.uri(of: MediaPath("/srv/music/x.mp3")) == "music (2)/x.mp3")
        #expect(two.path(of: "music/y.mp3") == MediaPath("/home/u/music/y.mp3"))
        #expect(two.path(of: "elsewhere/y.mp3") == nil)
    }

    /// Slashes at either end are dropped, any number of them; a URI without one is handed back as it is
    /// (the fast path `lsinfo` takes), and the top is "" however it is written.
    @Test func urisAreNormalizedAtBothEnds() {
        for (uri, normalized) in [("A/b", "A/b"), ("/A/b", "A/b"), ("A/b/", "A/b"), ("//A/b//", "A/b"), ("/", ""), ("//", ""),
                                  ("", ""), ("é", "é"), ("/é/", "é"), ("a", "a"), ("a/", "a"), ("/a", "a")] {
            #expect(LibraryURIs.normalized(uri) == normalized, "\(uri)")
        }
        let one = LibraryURIs(roots: [MediaPath("/srv/music")])
        #expect(one.path(of: "/A/b.flac/") == MediaPath("/srv/music/A/b.flac"))
        #expect(one.path(of: "/") == MediaPath("/srv/music"))
    }

    /// The version rises once per changing command; `plchanges` sees what moved.
    @Test func queueVersions() {
        var q = QueueIDs()
        #expect(q.version == 1)
        _ = q.insert(count: 3, at: 0)
        q.commit()
        #expect(q.version == 2 && q.ids == [1, 2, 3])
        q.move(from: 2, to: 1)
        q.commit()
        #expect(q.version == 3 && q.ids == [1, 3, 2])
        #expect(q.positions(changedSince: 2) == [1, 2])
        q.remove(at: 0)
        let changed = q.commit()
        #expect(changed)
        #expect(q.positions(changedSince: 3) == [0, 1])
        let again = q.commit()
        #expect(!again)   // nothing changed: no new version
    }

    /// Answers are built byte by byte, without String(format:) or Character scans: the same text as
    /// before, line breaks in values still turned into spaces.
    @Test func fieldsAndSecondsAreMPDsText() {
        let seconds = [0, 1.5, 0.0449, 12.3456, 3599.9996, 30].map(MPDFormat.seconds)
        #expect(seconds == ["0.000", "1.500", "0.045", "12.346", "3600.000", "30.000"])
        var out = Response()
        out.field("Title", "two\r\nlines\nhere")
        out.field("Id", 7)
        out.line("OK")
        #expect(String(decoding: out.bytes, as: UTF8.self) == "Title: two lines here\nId: 7\nOK\n")
        // ISO 8601 UTC times, written from one 20-byte buffer.
        let times = [0, 1_714_564_800.9, 951_782_400, 4_102_444_799].map { MPDFormat.timestamp(Date(timeIntervalSince1970: $0)) }
        #expect(times == ["1970-01-01T00:00:00Z", "2024-05-01T12:00:00Z", "2000-02-29T00:00:00Z", "2099-12-31T23:59:59Z"])
        var stamped = Response()
        stamped.timestamp("Last-Modified", seconds: 1_714_564_800)
        #expect(String(decoding: stamped.bytes, as: UTF8.self) == "Last-Modified: 2024-05-01T12:00:00Z\n")
    }

    /// Dates by arithmetic are gmtime_r's: the bounds of the stored range (years 1 and 9999), the epoch and
    /// the seconds around it, leap days of 1900 (none), 2000 and 2400, and a spread of others.
    @Test func timestampsAreGmtimes() {
        func gmtime(_ seconds: Int) -> String {
            var t = time_t(seconds), parts = tm()
            gmtime_r(&t, &parts)
            return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                          Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        }
        var seconds = [-62_135_596_800, 253_402_300_799, 0, -1, 1, 86_399, 86_400, -86_400, -86_401,
                       -2_203_891_200, -2_203_977_600, 951_782_400, 951_868_799, 13_574_563_200, 13_574_649_599]
        var generator = SystemRandomNumberGenerator()
        seconds += (0..<20_000).map { _ in Int.random(in: -62_135_596_800...253_402_300_799, using: &generator) }
        let wrong = seconds.filter { MPDFormat.timestamp(Date(timeIntervalSince1970: Double($0))) != gmtime($0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5).map { "\($0): \(MPDFormat.timestamp(Date(timeIntervalSince1970: Double($0)))) ≠ \(gmtime($0))" })")
    }
}
