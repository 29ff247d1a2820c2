import Foundation
@testable import Library
import MediaModel
import Testing

/// Issue 42: `getSimilarSongs2` at 100,000 songs. The scoring walked every song of the seed's artist and of
/// the ten most alike (2,300 songs an artist at c100k: 52 ms p95); it now draws from each weight tier only
/// what the answer's `count` can take, so the songs it scores grow with `count`, not with the neighbours'
/// songs. Counted here (songs scored), not timed; the answers are still the seed artist's songs first, then
/// the alike artists', never a seed, never twice, `count` honoured.
struct SimilarSongsWorkTests {
    /// A seeded generator (SplitMix64), so that a run is repeatable.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// 12 artists of 2,000 songs each (20 albums of 100), all "Rock"; artists 0–5 also "Shoegaze" (so they
    /// are alike each other first), every artist's median year its own decade.
    static let artists = 12, albumsEach = 20, songsEach = 2_000
    static let snapshot: LibrarySnapshot = {
        var items: [MediaItem] = []
        for artist in 0..<artists {
            for song in 0..<songsEach {
                var item = MediaItem(path: MediaPath(String(format: "/m/a%02d/al%02d/%04d.flac", artist, song / 100, song)))
                item.persistentID = Int64(artist * songsEach + song + 1)
                item[.artist] = .text("Artist \(artist)")
                item[.genre] = .text(artist < 6 ? "Rock; Shoegaze" : "Rock")
                item[.year] = .integer(Int64(1950 + artist * 10))
                items.append(item)
            }
        }
        return LibrarySnapshot(schema: Radio.schema, version: nil, roots: [MediaPath("/m")]) { body in items.forEach(body) }
    }()

    static func artist(_ item: Int32) -> String { snapshot.value(item, slot: 0) ?? "" }

    static func run(_ seeds: [Int32], count: Int, seed: UInt64 = 1) throws -> (songs: [Int32], work: Int) {
        let recommendations = Recommendations(snapshot: snapshot, slots: .init(artist: 0, genre: 1, year: 2))
        var generator = Seeded(state: seed), work = 0
        let songs = try recommendations.similarSongs(to: seeds, history: nil, user: .owner, count: count, using: &generator, work: &work)
        return (songs, work)
    }

    /// The songs of one artist, by view number.
    static func songs(of name: String) -> [Int32] { (0..<Int32(snapshot.count)).filter { artist($0) == name } }

    @Test func anAlbumSeedScoresWhatTheAnswerTakesAndItsArtistComesFirst() throws {
        #expect(Self.snapshot.count == Self.artists * Self.songsEach)
        let album = Array(Self.songs(of: "Artist 3").prefix(100))
        let (songs, work) = try Self.run(album, count: 50)
        #expect(songs.count == 50 && Set(songs).count == 50)
        #expect(Set(songs).isDisjoint(with: album), "no seed comes back")
        #expect(songs.allSatisfy { Self.artist($0) == "Artist 3" }, "the seed's artist weighs most: \(songs.map(Self.artist))")
        #expect(work <= 50 + album.count, "songs scored: \(work) (the seed's and ten alike artists hold 22,000)")
    }

    @Test func anArtistSeedSkipsItsOwnSongsAndTakesTheMostAlikeArtist() throws {
        let all = Self.songs(of: "Artist 3")
        let (songs, work) = try Self.run(all, count: 50)
        let alike = Recommendations(snapshot: Self.snapshot, slots: .init(artist: 0, genre: 1, year: 2)).similarArtists(to: "Artist 3")
        #expect(songs.count == 50 && Set(songs).count == 50)
        #expect(songs.allSatisfy { Self.artist($0) == alike.first }, "\(alike.first ?? "none"): \(Set(songs.map(Self.artist)))")
        #expect(work <= 50, "songs scored: \(work) (an artist all of whose songs are seeds adds none)")
    }

    @Test func aLargeCountWalksTheTiersInOrderWithoutDuplicates() throws {
        let album = Array(Self.songs(of: "Artist 3").prefix(100))
        let (songs, work) = try Self.run(album, count: 5_000)
        #expect(songs.count == 5_000 && Set(songs).count == 5_000)
        #expect(Set(songs).isDisjoint(with: album))
        #expect(songs.prefix(1_900).allSatisfy { Self.artist($0) == "Artist 3" }, "the seed's artist's other 1,900 songs first")
        let alike = Recommendations(snapshot: Self.snapshot, slots: .init(artist: 0, genre: 1, year: 2)).similarArtists(to: "Artist 3")
        #expect(songs.dropFirst(1_900).prefix(2_000).allSatisfy { Self.artist($0) == alike[0] }, "then the most alike artist's")
        #expect(songs.dropFirst(3_900).allSatisfy { Self.artist($0) == alike[1] }, "then the next one's")
        #expect(work <= 5_000 + album.count, "songs scored: \(work)")
    }

    @Test func aSeededRunRepeatsAndAnotherSeedVaries() throws {
        let album = Array(Self.songs(of: "Artist 7").prefix(100))
        let first = try Self.run(album, count: 50, seed: 7).songs
        #expect(try Self.run(album, count: 50, seed: 7).songs == first, "the same seed, the same answer")
        #expect(try Self.run(album, count: 50, seed: 8).songs != first, "equal scores come in another order for another seed")
    }
}
