/// The order of collections (`mlib ls --group albums --sort -year`), like beets' `ls -a`: by properties of
/// each group's representative item (`artist`, `year`, `added`…), by its number of items (`count`) or by
/// its total duration (`duration`). Groups equal on every key keep the order they came in (by name).
public struct CollectionOrdering: Sendable, Hashable {
    public enum Key: Sendable, Hashable {
        case item(SortDescriptor)
        case count(ascending: Bool)
        case totalDuration(ascending: Bool)
    }

    public var keys: [Key]

    public init(_ keys: [Key]) { self.keys = keys }

    /// Reads a sort list as `SortDescriptor.parseList` does, plus `count` (also `items`); a key naming
    /// the duration sorts by the group's total. Throws a `QueryError` pointing at an unknown key.
    public static func parse(_ text: String, ignoreArticles: Bool = false) throws -> CollectionOrdering {
        var keys: [Key] = []
        var offset = 0
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            defer { offset += raw.count + 1 }
            var name = raw.trimmingCharacters(in: .whitespaces)
            var ascending = true
            if name.hasPrefix("-") { ascending = false; name.removeFirst() } else if name.hasPrefix("+") { name.removeFirst() }
            if ["count", "items"].contains(name.lowercased()) {
                keys.append(.count(ascending: ascending))
                continue
            }
            do {
                for d in try SortDescriptor.parseList(String(raw), ignoreArticles: ignoreArticles) {
                    keys.append(d.property == .playbackDuration ? .totalDuration(ascending: d.ascending) : .item(d))
                }
            } catch var error as QueryError {
                error.query = text
                error.position = (error.position ?? 0) + offset
                throw error
            }
        }
        return CollectionOrdering(keys)
    }

    /// The order of `grouping`'s collections when no sort is given: albums by album artist, then album (as
    /// `beet ls -a`: by title alone, one artist's albums were scattered and the list looked unsorted);
    /// the others by name, with the articles left out when asked; nil: by name as the store lists them.
    public static func standard(for grouping: MediaGrouping, ignoreArticles: Bool = false) -> CollectionOrdering? {
        if grouping == .album {
            // `sorted` reads an album's artist as its album artist, or its artist when it has none.
            return CollectionOrdering([.item(SortDescriptor(.artist, ignoreArticles: ignoreArticles)),
                                       .item(SortDescriptor(.albumTitle, ignoreArticles: ignoreArticles))])
        }
        return ignoreArticles ? CollectionOrdering([.item(SortDescriptor(grouping.property, ignoreArticles: true))]) : nil
    }

    /// `summaries` of `grouping` in this order (a stable sort: ties keep their incoming order). An album's
    /// artist is its album artist, or its artist when it has none (what an album line shows).
    public func sorted(_ summaries: [MediaCollectionSummary], grouping: MediaGrouping) -> [MediaCollectionSummary] {
        guard !keys.isEmpty else { return summaries }
        let items = summaries.map { summary in
            var item = summary.representativeItem
            if grouping == .album { item.artist = item.albumArtist ?? item.artist }
            return item
        }
        return summaries.indices.sorted { a, b in
            let c = compare(summaries[a], items[a], summaries[b], items[b])
            return c != 0 ? c < 0 : a < b
        }.map { summaries[$0] }
    }

    func compare(_ a: MediaCollectionSummary, _ itemA: MediaItem, _ b: MediaCollectionSummary, _ itemB: MediaItem) -> Int {
        for key in keys {
            let c: Int
            switch key {
            case .item(let d): c = ItemOrdering.compare(itemA, itemB, d)
            case .count(let ascending): c = (a.count < b.count ? -1 : a.count > b.count ? 1 : 0) * (ascending ? 1 : -1)
            case .totalDuration(let ascending):
                c = (a.totalDuration < b.totalDuration ? -1 : a.totalDuration > b.totalDuration ? 1 : 0) * (ascending ? 1 : -1)
            }
            if c != 0 { return c }
        }
        return 0
    }
}
