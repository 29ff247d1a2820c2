import Foundation
import MediaIndex
import MediaModel

/// A radio of the library (`mlib play --radio`): songs like the ones that played, from `Recommendations`
/// (the same scores the API server's `getSimilarSongs2` gives), for one listener, so a queue can keep going
/// when it runs out. It keeps a view of just what likeness reads (album artist, genres, year), read once
/// from the store when the radio starts: a CLI has no live view to share.
public final class Radio: Sendable {
    /// What `Recommendations` reads of each item, and nothing else.
    static let schema = ViewSchema(slots: [
        .init("albumArtist", multiValued: false, reading: [.albumArtist, .artist]) { $0.albumArtist ?? $0.artist },
        .init("genre", multiValued: true, reading: [.genre]) { $0.genre },
        .init("year", multiValued: false, reading: [.year]) { $0[.year]?.integer.map { String($0) } },
    ], properties: [])

    public let library: Library
    public let recommendations: Recommendations
    /// Whose sessions weigh most: the user's own rows of the history (the owner's: without a user, or the
    /// owner account's).
    public let listener: HistoryQuery.UserFilter
    private let itemByID: [Int64: Int32]

    /// A radio for `user` (nil: the owner). Reads every item once (album artist, genres, year).
    ///
    /// - Throws: `UsersError.unknownUser` for a name that is no account; the store's errors.
    public init(library: Library, user: String?) throws {
        self.library = library
        if let own = try library.dataUser(user) {
            listener = .named(own)
        } else if let owner = try library.store.users().first(where: \.isOwner) {
            listener = .ownerAccount(owner.name)
        } else {
            listener = .owner
        }
        let snapshot = try LibrarySnapshot.build(from: library.store, schema: Self.schema, version: nil)
        let itemByID = Dictionary(snapshot.ids.enumerated().map { ($0.element, Int32($0.offset)) }, uniquingKeysWith: { a, _ in a })
        self.itemByID = itemByID
        recommendations = Recommendations(snapshot: snapshot, slots: .init(artist: 0, genre: 1, year: 2),
                                          itemNumber: { itemByID[$0] })
    }

    /// Up to `count` songs (audio items) like the items `seeds`, best first, none of `excluding` (what the
    /// queue holds already) nor the seeds; fewer, or none, when the library has no more like them.
    public func songs(like seeds: [Int64], excluding: Set<Int64>, count: Int) throws -> [MediaItem] {
        let numbers = seeds.compactMap { itemByID[$0] }
        guard !numbers.isEmpty, count > 0 else { return [] }
        let snapshot = recommendations.snapshot
        // Asked for enough to fill `count` after what the queue has is left out.
        let wanted = min(snapshot.count, count + excluding.count)
        var songs: [MediaItem] = []
        for number in try recommendations.similarSongs(to: numbers, history: library.store, user: listener, count: wanted) {
            let id = snapshot.ids[Int(number)]
            guard !excluding.contains(id), let item = try library.store.item(id: id), item.mediaType.rawValue & 0xff00 == 0 else { continue }
            songs.append(item)
            if songs.count == count { break }
        }
        return songs
    }

    /// How many songs a refill adds, and how many of the queue's last items it takes as seeds.
    public static let batch = 10, seedCount = 5

    /// The next songs of a queue that has run out (`queue`: its item ids in play order): up to `batch`
    /// songs like its last `seedCount` items, none it holds already.
    public func next(after queue: [Int64]) throws -> [MediaItem] {
        try songs(like: Array(queue.suffix(Self.seedCount).reversed()), excluding: Set(queue), count: Self.batch)
    }

    /// The seeds of a radio started without any: the listener's `count` most recent plays, newest first.
    public func recentPlays(count: Int = seedCount) throws -> [Int64] {
        var seen = Set<Int64>()
        return try library.store.history(HistoryQuery(user: listener, kind: .play, limit: count * 4))
            .map(\.listen.itemID).filter { seen.insert($0).inserted }.prefix(count).map { $0 }
    }
}
