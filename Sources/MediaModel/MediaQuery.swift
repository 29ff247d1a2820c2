/// A description of what to fetch, as Apple's `MPMediaQuery`: filter predicates (ANDed), sort order,
/// grouping into collections, and paging. Pure value; MediaIndex executes it in SQL and
/// `MediaQuery.apply(to:)` in memory.
public struct MediaQuery: Sendable, Hashable {
    public var filter: Predicate
    public var sort: [SortDescriptor]
    public var grouping: MediaGrouping
    public var limit: Int?
    public var offset: Int

    public init(filter: Predicate = .all, sort: [SortDescriptor] = [], grouping: MediaGrouping = .title,
                limit: Int? = nil, offset: Int = 0) {
        self.filter = filter
        self.sort = sort
        self.grouping = grouping
        self.limit = limit
        self.offset = offset
    }
}

/// How `collections` groups items, as `MPMediaGrouping`.
public enum MediaGrouping: String, Sendable, Hashable, CaseIterable {
    case title, album, artist, albumArtist, composer, genre, playlist, podcastTitle

    /// The item property whose value names a group.
    public var property: MediaProperty {
        switch self {
        case .title: .title
        case .album: .albumTitle
        case .artist: .artist
        case .albumArtist: .albumArtist
        case .composer: .composer
        case .genre: .genre
        case .playlist: .title
        case .podcastTitle: .albumTitle
        }
    }
}

/// A group of items sharing a grouping value, as `MPMediaItemCollection`.
public struct MediaCollection: Sendable, Hashable {
    public var name: String?
    public var items: [MediaItem]
    public var count: Int { items.count }
    public var representativeItem: MediaItem? { items.first }

    public init(name: String?, items: [MediaItem]) {
        self.name = name
        self.items = items
    }
}
