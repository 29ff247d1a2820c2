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

    public init(snapshot: LibrarySnapshot, slots: Slots) {
        self.snapshot = snapshot
        self.slots = slots
    }

    /// What likeness reads of the view, by artist (the artist slot's value numbers).
    struct Profile: Sendable {
        var songs: [UInt32: [Int32]] = [:]
        var artistByName: [String: UInt32] = [:]
        var genres: [UInt32: Set<String>] = [:]
        var medianYear: [UInt32: Int] = [:]
        /// By folded genre name ("Jazz" and "jazz" are one genre, as searches compare them).
        var artistsOfGenre: [String: Set<UInt32>] = [:]
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
    public func similarSongs(to seeds: [Int32], history: (any ListeningHistoryStore)?, user: HistoryQuery.UserFilter,
                             count: Int) throws -> [Int32] {
        let seedSet = Set(seeds.filter { $0 >= 0 && Int($0) < snapshot.count })
        guard !seedSet.isEmpty, count > 0 else { return [] }
        var score: [Int32: Double] = [:]
        if let history {
            let alongside = try history.listenedAlongside(seedSet.map { snapshot.ids[Int($0)] }, user: user, window: Self.sessionWindow)
            // By id, in one pass over the view (an item removed since keeps its history, and is not in it).
            if !alongside.isEmpty {
                for (item, id) in snapshot.ids.enumerated() {
                    guard let together = alongside[id] else { continue }
                    score[Int32(item), default: 0] += Double(together.mine) * Self.ownSessionWeight + Double(together.others) * Self.otherSessionWeight
                }
            }
        }
        var artistWeight: [UInt32: Double] = [:]
        for seed in seedSet {
            let cell = snapshot.cell(seed, slot: slots.artist)
            guard cell != 0, artistWeight[cell] == nil else { continue }
            artistWeight[cell] = Self.sameArtistWeight
        }
        for own in Array(artistWeight.keys) {
            for (rank, other) in similarArtistCells(to: own).prefix(10).enumerated() {
                artistWeight[other] = max(artistWeight[other] ?? 0, Self.similarArtistWeight * (1 - Double(rank) / 10))
            }
        }
        let songs = profile.songs
        for (artist, weight) in artistWeight {
            for item in songs[artist] ?? [] { score[item, default: 0] += weight }
        }
        let ranked = score.filter { $0.value > 0 && !seedSet.contains($0.key) }.map { ($0.key, $0.value) }.shuffled()
        return ranked.enumerated().sorted { ($0.element.1, $1.offset) > ($1.element.1, $0.offset) }.prefix(count).map(\.element.0)
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
