import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// Property-based: random predicates, sorts and groupings over random items must give the same answer in
/// SQL (the real schema of each store: SQLite, and PostgreSQL on a real server) and in memory. Seeded, so a failure reproduces; the failing query is
/// printed in its format-string form.
@Suite struct QueryAgreementTests {
    /// Text that collides under folding, carries wildcard and quote characters, and differs only in
    /// normalization, so every modifier and escape is exercised.
    static let texts = ["", "a", "A", "ä", "Ä", "ab", "Ab", "abc", "b", "ß", "ss", "e\u{301}", "\u{E9}", "The Who", "the who",
                        "A Tribe", "An Echo", "a%b", "a_b", "a*b", "a?b", "[x]", "back\\slash", "quote'\"", "Björk", "bjork",
                        "BJÖRK", "Beyoncé", "Ωmega", "ωmega", "100%", " lead", "x y z", "İstanbul", "ﬁne", "Z", "zz", "a; b"]
    static let dates = ["1999", "1999-05", "1999-05-01", "2000-01-01", "2000", "1998-12-31"]
    static let searchWords = ["bj", "bjork", "the", "who", "a", "ab", "omega", "ωm", "x", "beyonce", "z", "tribe", "fine", "ss"]
    static let regexes = [".*", "a.*", "b.*k", "[a-z]+", ".*\\d.*", "ab|abc", "é.*", "(?i)the .*", "\\w+ \\w+", "bj[oö]rk"]

    static let textProperties: [MediaProperty] = [.title, .artist, .albumTitle, .albumArtist, .genre, .composer, .comments, .grouping]
    /// `rating` is the user's rating else `tagRating` (a file's): random items carry either, both or none.
    static let numberProperties: [MediaProperty] = [.year, .albumTrackNumber, .discNumber, .playbackDuration, .rating, .tagRating,
                                                     .playCount, .replayGainTrackGain, .isCompilation, .dateAdded]

    static func randomValue(_ p: MediaProperty, _ rng: inout SeededGenerator) -> MediaValue {
        switch p {
        case .year: .integer(Int64.random(in: 1995...2001, using: &rng))
        case .albumTrackNumber, .discNumber, .rating, .tagRating, .playCount: .integer(Int64.random(in: 0...4, using: &rng))
        case .playbackDuration: .real([0, 59.5, 60, 300, 301.25, 3600].randomElement(using: &rng)!)
        case .replayGainTrackGain: .real([-7.5, -6, 0, 1.25].randomElement(using: &rng)!)
        case .isCompilation: .bool(Bool.random(using: &rng))
        case .dateAdded: .real([1_000_000_000, 1_500_000_000, 1_700_000_000.5].randomElement(using: &rng)!)
        case .mediaType: .integer([1, 2, 4, 256, 257, 2048, 0].randomElement(using: &rng)!)
        case .releaseDate: .text(dates.randomElement(using: &rng)!)
        // Multi-valued properties (artist, albumArtist, genre, composer) often carry two or three values,
        // some folding alike ("Björk; bjork"), some empty ("a; ").
        case _ where p.spec.multiValued && Int.random(in: 0..<3, using: &rng) == 0:
            .text((0..<Int.random(in: 2...3, using: &rng)).map { _ in texts.randomElement(using: &rng)! }
                .joined(separator: MediaProperty.valueSeparator))
        default: .text(texts.randomElement(using: &rng)!)
        }
    }

    static func randomItem(_ n: Int, _ rng: inout SeededGenerator) -> MediaItem {
        let name = texts.randomElement(using: &rng)!.replacingOccurrences(of: "/", with: "")
        var item = MediaItem(path: MediaPath("/lib/\(["A", "b", "é"].randomElement(using: &rng)!)/\(name)-\(n).mp3"))
        for p in textProperties + numberProperties + [.mediaType, .releaseDate] where Int.random(in: 0..<5, using: &rng) > 0 {
            item[p] = randomValue(p, &rng)
        }
        return item
    }

    static func randomOptions(_ rng: inout SeededGenerator) -> Comparison.Options {
        [[], [], .caseInsensitive, .diacriticInsensitive, .cd, .cd].randomElement(using: &rng)!
    }

    static func randomComparison(_ rng: inout SeededGenerator) -> MediaPredicate {
        let pool = textProperties + numberProperties + [.mediaType, .releaseDate, .path]
        let p = pool.randomElement(using: &rng)!
        if Int.random(in: 0..<12, using: &rng) == 0 {
            return .comparison(Comparison(p, Bool.random(using: &rng) ? .equal : .notEqual, .null))
        }
        let type = p.spec.type
        var ops: [Comparison.Operator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .between, .in]
        if type == .text || type == .date { ops += [.contains, .beginsWith, .endsWith, .like, .matches, .contains, .like] }
        if type == .mediaType { ops = [.equal, .notEqual, .in] }
        let op = ops.randomElement(using: &rng)!
        let options = (type == .text || type == .date) ? randomOptions(&rng) : []
        func value() -> MediaValue {
            if p == .path { return .text(["/lib/", "/lib/A/", "mp3", ".mp3", "é", "b/", "A"].randomElement(using: &rng)!) }
            return randomValue(p, &rng)
        }
        switch op {
        case .between: return .comparison(Comparison(p, op, .range(value(), value()), options: options))
        case .in: return .comparison(Comparison(p, op, .list((0..<Int.random(in: 0...3, using: &rng)).map { _ in value() }), options: options))
        case .like:
            var chars = Array(value().text ?? "")
            for i in chars.indices where Int.random(in: 0..<3, using: &rng) == 0 { chars[i] = ["*", "?"].randomElement(using: &rng)! }
            if Bool.random(using: &rng) { chars.append("*") }
            return .comparison(Comparison(p, op, .value(.text(String(chars))), options: options))
        case .matches:
            return .comparison(Comparison(p, op, .value(.text(regexes.randomElement(using: &rng)!)), options: options))
        default:
            return .comparison(Comparison(p, op, .value(value()), options: options))
        }
    }

    static func randomPredicate(_ depth: Int, _ rng: inout SeededGenerator) -> MediaPredicate {
        let roll = Int.random(in: 0..<(depth > 0 ? 10 : 6), using: &rng)
        switch roll {
        case 0: return .search((0..<Int.random(in: 1...2, using: &rng)).map { _ in searchWords.randomElement(using: &rng)! }.joined(separator: " "))
        case 1...5: return randomComparison(&rng)
        case 6: return .not(randomPredicate(depth - 1, &rng))
        case 7, 8: return .and((0..<Int.random(in: 2...3, using: &rng)).map { _ in randomPredicate(depth - 1, &rng) })
        default: return .or((0..<Int.random(in: 2...3, using: &rng)).map { _ in randomPredicate(depth - 1, &rng) })
        }
    }

    static func randomSort(_ rng: inout SeededGenerator) -> [MediaSortDescriptor] {
        let keys = textProperties + numberProperties + [.mediaType, .releaseDate, .path]
        return (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            MediaSortDescriptor(keys.randomElement(using: &rng)!, ascending: Bool.random(using: &rng),
                           ignoreArticles: Int.random(in: 0..<3, using: &rng) == 0)
        }
    }

    static func library(seed: UInt64, count: Int, on store: Store) throws -> (any LibraryStore, [MediaItem], SeededGenerator) {
        var rng = SeededGenerator(seed: seed)
        let items = (0..<count).map { randomItem($0, &rng) }
        let (index, stored) = try queryLibrary(items, on: store)
        return (index, stored, rng)
    }

    @Test(arguments: Store.available) func randomPredicatesSelectTheSameItems(_ store: Store) throws {
        var (index, stored, rng) = try Self.library(seed: 20_261_121, count: 250, on: store)
        var nonTrivial = 0
        for _ in 0..<3000 {
            let p = Self.randomPredicate(3, &rng)
            let sql = Set(try index.itemIDs(MediaQuery(filter: p)))
            let memory = Set(stored.filter(try PredicateEvaluator(p).matches).map(\.persistentID))
            #expect(sql == memory, "\(p)  — SQL only: \(sql.subtracting(memory).sorted()), memory only: \(memory.subtracting(sql).sorted())")
            if !sql.isEmpty && sql.count < stored.count { nonTrivial += 1 }
            if sql != memory { break }
        }
        #expect(nonTrivial > 1000, "the generator should produce selective predicates (\(nonTrivial))")
    }

    @Test(arguments: Store.available) func randomSortsAndPagesGiveTheSameOrder(_ store: Store) throws {
        var (index, stored, rng) = try Self.library(seed: 7, count: 200, on: store)
        for round in 0..<400 {
            let q = MediaQuery(filter: Bool.random(using: &rng) ? .all : Self.randomPredicate(1, &rng), sort: Self.randomSort(&rng),
                               limit: Bool.random(using: &rng) ? nil : Int.random(in: 0...50, using: &rng),
                               offset: Int.random(in: 0...3, using: &rng) == 0 ? Int.random(in: 0...60, using: &rng) : 0)
            let sql = try index.itemIDs(q)
            if round % 10 == 0 { #expect(try index.items(q).map(\.persistentID) == sql) }
            let memory = try q.apply(to: stored).map(\.persistentID)
            #expect(sql == memory, "filter \(q.filter) sort \(MediaSortDescriptor.listDescription(q.sort))")
            if sql != memory { break }
        }
    }

    @Test(arguments: Store.available) func randomGroupingsGiveTheSameCollections(_ store: Store) throws {
        var (index, stored, rng) = try Self.library(seed: 99, count: 200, on: store)
        let groupings: [MediaGrouping] = [.title, .album, .artist, .albumArtist, .composer, .genre, .podcastTitle]
        for _ in 0..<150 {
            let q = MediaQuery(filter: Bool.random(using: &rng) ? .all : Self.randomPredicate(1, &rng),
                               sort: Bool.random(using: &rng) ? [] : Self.randomSort(&rng),
                               grouping: groupings.randomElement(using: &rng)!,
                               limit: Bool.random(using: &rng) ? nil : Int.random(in: 0...10, using: &rng),
                               offset: Bool.random(using: &rng) ? 0 : Int.random(in: 0...5, using: &rng))
            let sql = try index.collections(q), memory = try q.collections(from: stored)
            #expect(sql.map(\.name) == memory.map(\.name), "\(q.grouping) \(q.filter)")
            #expect(sql.map { $0.items.map(\.persistentID) } == memory.map { $0.items.map(\.persistentID) }, "\(q.grouping) \(q.filter)")
            let sqlSummary = try index.collectionSummaries(q), memorySummary = try q.collectionSummaries(from: stored)
            #expect(sqlSummary.map(\.name) == memorySummary.map(\.name))
            #expect(sqlSummary.map(\.count) == memorySummary.map(\.count))
            #expect(sqlSummary.map(\.representativeItem.persistentID) == memorySummary.map(\.representativeItem.persistentID))
            if sql.map(\.name) != memory.map(\.name) { break }
        }
    }
}
