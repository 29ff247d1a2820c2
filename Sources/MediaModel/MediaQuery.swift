/// A description of what to fetch, as Apple's `MPMediaQuery`: filter predicates (ANDed), sort order,
/// grouping into collections, and paging. Pure value; MediaIndex executes it in SQL and
/// `MediaQuery.apply(to:)` in memory, with the same results.
public struct MediaQuery: Sendable, Hashable {
    public var filter: Predicate
    public var sort: [SortDescriptor]
    public var grouping: MediaGrouping
    /// For items: at most this many items; for collections: this many collections.
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

    /// The sort actually applied: `sort`, or the grouping's natural order when empty, in album order
    /// (see `SortDescriptor.expandingAlbumOrder`); the persistent ID breaks remaining ties.
    public var effectiveSort: [SortDescriptor] {
        SortDescriptor.expandingAlbumOrder(sort.isEmpty ? grouping.defaultItemSort : sort)
    }

    // MARK: MPMediaQuery-style filters

    /// ANDs an Apple-style property predicate into the filter.
    public mutating func addFilterPredicate(_ predicate: MediaPropertyPredicate) { filter = filter && predicate.predicate }
    /// ANDs any predicate into the filter.
    public mutating func addFilter(_ predicate: Predicate) { filter = filter && predicate }
    /// Removes a predicate added with `addFilterPredicate` (a top-level term of the filter).
    public mutating func removeFilterPredicate(_ predicate: MediaPropertyPredicate) {
        let p = predicate.predicate
        switch filter {
        case p: filter = .all
        case .and(let terms): filter = .allOf(terms.filter { $0 != p })
        default: break
        }
    }

    // MARK: Convenience queries (MPMediaQuery's class methods)

    static let music = MediaPropertyPredicate(value: MediaType.music, forProperty: .mediaType).predicate

    public static func songs() -> MediaQuery { MediaQuery(filter: music, grouping: .title) }
    public static func albums() -> MediaQuery { MediaQuery(filter: music, grouping: .album) }
    public static func artists() -> MediaQuery { MediaQuery(filter: music, grouping: .artist) }
    public static func albumArtists() -> MediaQuery { MediaQuery(filter: music, grouping: .albumArtist) }
    public static func composers() -> MediaQuery { MediaQuery(filter: music, grouping: .composer) }
    public static func genres() -> MediaQuery { MediaQuery(filter: music, grouping: .genre) }
    public static func compilations() -> MediaQuery {
        MediaQuery(filter: music && MediaProperty.isCompilation.equals(true), grouping: .album)
    }
    public static func podcasts() -> MediaQuery {
        MediaQuery(filter: MediaPropertyPredicate(value: MediaType.podcast, forProperty: .mediaType).predicate,
                   grouping: .podcastTitle)
    }
    public static func audiobooks() -> MediaQuery {
        MediaQuery(filter: MediaPropertyPredicate(value: MediaType.audioBook, forProperty: .mediaType).predicate,
                   grouping: .album)
    }
    public static func videos() -> MediaQuery {
        MediaQuery(filter: MediaPropertyPredicate(value: MediaType.anyVideo, forProperty: .mediaType).predicate,
                   grouping: .title)
    }
    /// Collections are the library's playlists (served by the index from its playlist tables).
    public static func playlists() -> MediaQuery { MediaQuery(grouping: .playlist) }
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

    /// What identifies a group: each part is a property (with a fallback used when it is missing),
    /// compared folded, so "Björk" and "BJORK" are one artist. An album is its title plus its album
    /// artist (or artist), so two "Greatest Hits" stay apart.
    public var keyParts: [(property: MediaProperty, fallback: MediaProperty?)] {
        switch self {
        case .album: [(.albumTitle, nil), (.albumArtist, .artist)]
        case .albumArtist: [(.albumArtist, .artist)]
        default: [(property, nil)]
        }
    }

    /// The folded key of `item`'s group (nil parts: no value).
    public func key(of item: MediaItem) -> [String?] {
        keyParts.map { part in
            (item[part.property] ?? part.fallback.flatMap { item[$0] }).map { TextFolding.folded($0.text ?? $0.description) }
        }
    }

    /// The property whose values each make a group of their own, when the grouping has one key part and
    /// that property is multi-valued (artists, album artists, genres, composers): an item tagged
    /// "Rock; Jazz" is in the Rock group and in the Jazz group. Albums keep their joined album artist.
    public func eachValueProperty(of item: MediaItem) -> MediaProperty? {
        guard keyParts.count == 1 else { return nil }
        let part = keyParts[0]
        let p = item[part.property] == nil ? (part.fallback ?? part.property) : part.property
        return p.spec.multiValued ? p : nil
    }

    /// The folded keys of every group `item` is in: one, or one per value (`eachValueProperty`).
    public func keys(of item: MediaItem) -> [[String?]] {
        guard let p = eachValueProperty(of: item), item[p] != nil else { return [key(of: item)] }
        var seen = Set<String>()
        return item.values(of: p).map(TextFolding.folded).filter { seen.insert($0).inserted }.map { [$0] }
    }

    /// The display name of `item`'s group: the first key part's value as written.
    public func name(of item: MediaItem) -> String? {
        let part = keyParts[0]
        return (item[part.property] ?? part.fallback.flatMap { item[$0] }).map { $0.text ?? $0.description }
    }

    /// The display name of the group with folded key `key` that `item` is in: the value whose folded form
    /// is the key when the group is one of several values, else `name(of:)`.
    public func name(of item: MediaItem, key: String?) -> String? {
        guard let p = eachValueProperty(of: item), let key else { return name(of: item) }
        return item.values(of: p).first { TextFolding.folded($0) == key } ?? name(of: item)
    }

    /// Item order inside a collection when the query gives none.
    public var defaultItemSort: [SortDescriptor] {
        switch self {
        case .title, .playlist: [SortDescriptor(.title)]
        case .album, .podcastTitle: [SortDescriptor(.discNumber), SortDescriptor(.albumTrackNumber), SortDescriptor(.title)]
        case .artist, .albumArtist: [SortDescriptor(.albumTitle), SortDescriptor(.title)]
        case .composer, .genre: [SortDescriptor(.artist), SortDescriptor(.albumTitle), SortDescriptor(.title)]
        }
    }

    /// Orders group keys: part by part, missing last.
    public static func compareKeys(_ a: [String?], _ b: [String?]) -> Int {
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case (nil, nil): continue
            case (nil, _): return 1
            case (_, nil): return -1
            case (let x?, let y?):
                let c = TextMatching.compare(x, y)
                if c != 0 { return c }
            }
        }
        return 0
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

/// A collection without its items: name, size and one item (the group's lowest persistent ID, i.e. the
/// first indexed). What `mlib ls --group` prints; cheap on large libraries. From the index, the
/// representative item carries its id, path and the properties that name and describe a group (title,
/// album, artist, album artist, genre, composer, year, release date, media type, compilation, counts,
/// artwork); fetch `item(id:)` for the rest.
public struct MediaCollectionSummary: Sendable, Hashable {
    public var name: String?
    public var count: Int
    public var representativeItem: MediaItem
    /// The sum of the items' durations, in seconds.
    public var totalDuration: Double

    public init(name: String?, count: Int, representativeItem: MediaItem, totalDuration: Double = 0) {
        self.name = name
        self.count = count
        self.representativeItem = representativeItem
        self.totalDuration = totalDuration
    }
}

// MARK: In-memory execution (the reference the SQL back end is tested against)

extension MediaQuery {
    /// Filters, sorts and pages `items` as the index would.
    public func apply(to items: [MediaItem]) throws -> [MediaItem] {
        let evaluator = try PredicateEvaluator(filter)
        let sorted = ItemOrdering(effectiveSort).sorted(items.filter(evaluator.matches))
        return Array(sorted.dropFirst(max(0, offset)).prefix(limit ?? Int.max))
    }

    /// Groups the matching `items` by `grouping`: collections ordered by key, items by `effectiveSort`;
    /// `limit`/`offset` count collections.
    public func collections(from items: [MediaItem]) throws -> [MediaCollection] {
        try groups(from: items).map { key, members in
            MediaCollection(name: grouping.name(of: members[0], key: key[0]), items: members)
        }
    }

    public func collectionSummaries(from items: [MediaItem]) throws -> [MediaCollectionSummary] {
        try groups(from: items).map { key, members in
            let first = members.min { $0.persistentID < $1.persistentID }!
            return MediaCollectionSummary(name: grouping.name(of: first, key: key[0]), count: members.count,
                                          representativeItem: first,
                                          totalDuration: members.reduce(0) { $0 + $1.playbackDuration })
        }
    }

    /// The matching items by group key (an item in each of its groups: `MediaGrouping.keys(of:)`), keys in
    /// order, paged.
    private func groups(from items: [MediaItem]) throws -> [(key: [String?], members: [MediaItem])] {
        var all = self
        all.limit = nil
        all.offset = 0
        let matching = try all.apply(to: items)
        var groups: [[String?]: [MediaItem]] = [:]
        for item in matching {
            for key in grouping.keys(of: item) { groups[key, default: []].append(item) }
        }
        let keys = groups.keys.sorted { MediaGrouping.compareKeys($0, $1) < 0 }
        return keys.dropFirst(max(0, offset)).prefix(limit ?? Int.max).map { ($0, groups[$0]!) }
    }
}
