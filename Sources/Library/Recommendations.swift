import Foundation
import MediaIndex
import MediaModel
import Synchronization

/// Recommendations from the library itself, with no internet — where Navidrome and gonic ask Last.fm and
/// answer nothing offline. Every front reads them from here (the API server's `getArtistInfo(2)` and
/// `getSimilarSongs(2)`), over the in-memory view the front already keeps, so a request costs one pass over
/// the view's artists and one history query, not a store scan: what it needs of the view (`Profile`: each
/// artist's songs, genres and median year) is derived once per snapshot, at the first request.
///
/// Two kinds of evidence:
/// - **What the library says of the music**: artists are alike by the genres their songs are tagged with (a
///   genre few artists share weighs more than one most share: 1 / log2(1 + artists of the genre)) and, on
///   top of a shared genre, by era (median album years within 5 years: + 0.25).
/// - **What its listeners did**: songs played in the same session as a seed (within `sessionWindow` of one
///   of its plays, by the same listener: `ListeningHistoryStore.listenedAlongside`). The asking user's own
///   sessions weigh three times anyone else's, so two people sharing a library get their own neighbours.
public final class Recommendations: Sendable {
    /// Where the view keeps what likeness reads: the slot numbers of the artist (a front passes its album
    /// artist, so that a compilation's songs gather under one), the genres (multi-valued) and the year.
    public struct Slots: Sendable, Hashable {
        public var artist: Int
        public var genre: Int
        public var year: Int

        public init(artist: Int, genre: Int, year: Int) {
            self.artist = artist
            self.genre = genre
            self.year = year
        }
    }

    /// A listening session, as far as the history's times can tell: plays within 30 minutes of each other.
    public static let sessionWindow: TimeInterval = 30 * 60

    /// A session shared with a seed, in the asking user's history and in anyone else's; the seed's own
    /// artist; the most alike artist (falling to a tenth of it for the tenth).
    static let ownSessionWeight = 3.0, otherSessionWeight = 1.0, sameArtistWeight = 2.0, similarArtistWeight = 1.0

    public let snapshot: LibrarySnapshot
    public let slots: Slots
    private let derived = Mutex<Profile?>(nil)
    /// The view number of an item id, from the front's own table (nil: the profile derives one).
    private let itemByID: (@Sendable (Int64) -> Int32?)?

    /// - Parameter itemNumber: the view number of an item id, when the front keeps that table already.
    public init(snapshot: LibrarySnapshot, slots: Slots, itemNumber: (@Sendable (Int64) -> Int32?)? = nil) {
        self.snapshot = snapshot
        self.slots = slots
        self.itemByID = itemNumber
    }

    /// The view number of the item `id`, nil when the view does not hold it.
    func itemNumber(_ id: Int64) -> Int32? {
        if let itemByID { return itemByID(id) }
        return profile.itemByID[id]
    }

    /// What likeness reads of the view, by artist (the artist slot's value numbers).
    struct Profile: Sendable {
        var songs: [UInt32: [Int32]] = [:]
        var artistByName: [String: UInt32] = [:]
        var genres: [UInt32: Set<String>] = [:]
        var medianYear: [UInt32: Int] = [:]
        /// By folded genre name ("Jazz" and "jazz" are one genre, as searches compare them).
        var artistsOfGenre: [String: Set<UInt32>] = [:]
        /// Only when the front gave no table of its own.
        var itemByID: [Int64: Int32] = [:]
    }

    /// The profile of this snapshot, derived at the first call (one pass over the view; genre names folded
    /// once per distinct value).
    var profile: Profile {
        if let known = derived.withLock({ $0 }) { return known }
        var profile = Profile(), folded: [UInt32: String] = [:], years: [UInt32: [Int]] = [:]
        for item in 0..<Int32(snapshot.count) {
            let artist = snapshot.cell(item, slot: slots.artist)
            guard artist != 0 else { continue }
            profile.songs[artist, default: []].append(item)
            if let year = snapshot.value(item, slot: slots.year).flatMap({ Int($0) }) { years[artist, default: []].append(year) }
            let genres = snapshot.cell(item, slot: slots.genre)
            guard genres != 0 else { continue }
            for genre in snapshot.parts(genres, slot: slots.genre) {
                let key = folded[genre] ?? TextFolding.folded(snapshot.string(genre, slot: slots.genre))
                folded[genre] = key
                profile.genres[artist, default: []].insert(key)
            }
        }
        if itemByID == nil {
            for (item, id) in snapshot.ids.enumerated() { profile.itemByID[id] = Int32(item) }
        }
        for artist in profile.songs.keys { profile.artistByName[snapshot.string(artist, slot: slots.artist)] = artist }
        for (artist, genres) in profile.genres {
            for genre in genres { profile.artistsOfGenre[genre, default: []].insert(artist) }
        }
        profile.medianYear = years.mapValues { $0.sorted()[$0.count / 2] }
        let made = profile
        return derived.withLock { known in
            if let known { return known }   // another request derived it meanwhile
            known = made
            return made
        }
    }

    /// The other artists by likeness to `artist` (a value of the artist slot), most alike first, ties by
    /// name; none that shares no genre with them.
    public func similarArtists(to artist: String) -> [String] {
        guard let cell = profile.artistByName[artist] else { return [] }
        return similarArtistCells(to: cell).map { snapshot.string($0, slot: slots.artist) }
    }

    /// Songs like `seeds` (view item numbers) for `user`, best first, at most `count`, the seeds left out:
    /// each song scores `ownSessionWeight` per session of the user's it shared with a seed and
    /// `otherSessionWeight` per session of anyone else's (`history`; nil: no listening evidence),
    /// `sameArtistWeight` when it is by a seed's artist, and the likeness of its artist to the seeds'
    /// (`similarArtists`, the ten most alike). Songs of equal score come in random order, so that a radio
    /// built on it varies from one request to the next.
    ///
    /// The cost grows with `count`, the seeds and the songs with listening evidence, not with the songs of
    /// the alike artists (2,300 an artist at 100,000 songs): the songs that only their artist scores form
    /// tiers of equal score, and from each tier, best first, only as many are drawn (uniformly, without
    /// replacement) as the answer can still take. A song with listening evidence is always scored, so among
    /// equal scores it is a little likelier to be picked than one drawn from a large tier.
    public func similarSongs(to seeds: [Int32], history: (any ListeningHistoryStore)?, user: HistoryQuery.UserFilter,
                             count: Int) throws -> [Int32] {
        var generator = SystemRandomNumberGenerator(), work = 0
        return try similarSongs(to: seeds, history: history, user: user, count: count, using: &generator, work: &work)
    }

    /// The seeds' ids the history is asked about at most (spread over them): an artist's or a folder's seeds
    /// can be thousands, and the query reads only their 500 most recent plays anyway.
    static let historySeedLimit = 1_000

    /// `similarSongs` with its random numbers from `generator` (a seeded one makes a run repeatable), adding
    /// to `work` the songs it scored (drawn from a tier, whether taken or not, or with listening evidence).
    func similarSongs(to seeds: [Int32], history: (any ListeningHistoryStore)?, user: HistoryQuery.UserFilter,
                      count: Int, using generator: inout some RandomNumberGenerator, work: inout Int) throws -> [Int32] {
        let seedSet = Set(seeds.filter { $0 >= 0 && Int($0) < snapshot.count })
        guard !seedSet.isEmpty, count > 0 else { return [] }
        // Listening evidence, by item: few songs (the query reads at most 500 plays of the seeds).
        var evidence: [Int32: Double] = [:]
        if let history {
            let ordered = seedSet.sorted()
            let step = max(1, ordered.count / Self.historySeedLimit)
            let asked = stride(from: 0, to: ordered.count, by: step).prefix(Self.historySeedLimit).map { snapshot.ids[Int(ordered[$0])] }
            let alongside = try history.listenedAlongside(asked, user: user, window: Self.sessionWindow)
            // An item removed since keeps its history, and is not in the view.
            for (id, together) in alongside {
                guard let item = itemNumber(id), !seedSet.contains(item) else { continue }
                evidence[item, default: 0] += Double(together.mine) * Self.ownSessionWeight + Double(together.others) * Self.otherSessionWeight
            }
        }
        var artistWeight: [UInt32: Double] = [:], seedsOfArtist: [UInt32: Int] = [:]
        for seed in seedSet {
            let cell = snapshot.cell(seed, slot: slots.artist)
            guard cell != 0 else { continue }
            seedsOfArtist[cell, default: 0] += 1
            artistWeight[cell] = Self.sameArtistWeight
        }
        for own in Array(artistWeight.keys) {
            for (rank, other) in similarArtistCells(to: own).prefix(10).enumerated() {
                artistWeight[other] = max(artistWeight[other] ?? 0, Self.similarArtistWeight * (1 - Double(rank) / 10))
            }
        }
        let artistOf = { (item: Int32) in self.snapshot.cell(item, slot: self.slots.artist) }
        var ranked: [(item: Int32, score: Double)] = evidence.compactMap { item, sessions in
            let score = sessions + (artistWeight[artistOf(item)] ?? 0)
            return score > 0 ? (item, score) : nil
        }
        work += evidence.count
        // The tiers, best first. Every song drawn from a tier outranks every song of a later one, so once
        // `count` are drawn the later tiers cannot reach the answer.
        let songs = profile.songs
        let tiers = Dictionary(grouping: artistWeight.keys.filter { artistWeight[$0]! > 0 }) { artistWeight[$0]! }.sorted { $0.key > $1.key }
        var drawn = 0
        for (weight, artists) in tiers where drawn < count {
            // The tier's songs, its artists' concatenated; an artist all of whose songs are seeds adds none.
            let pools = artists.sorted().compactMap { artist -> [Int32]? in
                let own = songs[artist] ?? []
                return own.count > (seedsOfArtist[artist] ?? 0) ? own : nil
            }
            var starts: [Int] = [], total = 0
            for pool in pools { starts.append(total); total += pool.count }
            // A Fisher–Yates shuffle of 0..<total that keeps only the swapped places (`moved`), stopped when
            // the answer is full: each step picks uniformly among the songs not drawn yet.
            var moved: [Int: Int] = [:], step = 0
            while step < total, drawn < count {
                let pick = Int.random(in: step..<total, using: &generator)
                let index = moved[pick] ?? pick
                moved[pick] = moved[step] ?? step
                step += 1
                work += 1
                var pool = pools.count - 1
                while starts[pool] > index { pool -= 1 }
                let item = pools[pool][index - starts[pool]]
                guard !seedSet.contains(item), evidence[item] == nil else { continue }
                ranked.append((item, weight))
                drawn += 1
            }
        }
        ranked.shuffle(using: &generator)
        return ranked.enumerated().sorted { ($0.element.score, $1.offset) > ($1.element.score, $0.offset) }.prefix(count).map(\.element.item)
    }

    /// `similarArtists` as the artist slot's value numbers (cells).
    private func similarArtistCells(to artist: UInt32) -> [UInt32] {
        let profile = profile
        var score: [UInt32: Double] = [:]
        for genre in profile.genres[artist] ?? [] {
            let members = profile.artistsOfGenre[genre] ?? []
            let weight = 1 / log2(1 + Double(members.count))
            for other in members where other != artist { score[other, default: 0] += weight }
        }
        if let own = profile.medianYear[artist] {
            for (other, value) in score {
                if let theirs = profile.medianYear[other], abs(own - theirs) <= 5 { score[other] = value + 0.25 }
            }
        }
        let name = { (cell: UInt32) in self.snapshot.string(cell, slot: self.slots.artist) }
        return score.keys.sorted { (score[$0]!, name($1)) > (score[$1]!, name($0)) }
    }
}
