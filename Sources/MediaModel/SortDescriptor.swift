/// An ordering key, as NSSortDescriptor: a property and a direction. Numbers sort as numbers, text by the
/// folded (case- and diacritic-insensitive) form, missing values last in either direction.
public struct SortDescriptor: Sendable, Hashable {
    public var property: MediaProperty
    public var ascending: Bool
    /// Sort "The Beatles" as "Beatles" (leading "The ", "A ", "An ").
    public var ignoreArticles: Bool

    public init(_ property: MediaProperty, ascending: Bool = true, ignoreArticles: Bool = false) {
        self.property = property
        self.ascending = ascending
        self.ignoreArticles = ignoreArticles
    }

    /// How values of a property are ordered (the SQL compiler and `ItemOrdering` follow the same rule).
    public enum Kind: Sendable {
        case foldedText     // text: by TextFolding.folded, byte order (Björk = bjork < Blur)
        case isoText        // dates as ISO text, byte order
        case pathBytes      // the path's exact bytes
        case numeric        // numbers, durations, timestamps, booleans, media types
    }

    public static func kind(of property: MediaProperty) -> Kind {
        if property == .path { return .pathBytes }
        switch property.spec.type {
        case .text: return .foldedText
        case .date: return .isoText
        default: return .numeric
        }
    }

    /// Reads `artist,-year,+album`: comma-separated keys (names or aliases as in queries), `-` for
    /// descending, `~` to ignore leading articles in that key (`~artist`, `-~artist`: what
    /// `--ignore-articles` sets on every key, written so a smart playlist's stored sort keeps it).
    /// Throws a `QueryError` pointing at an unknown key.
    public static func parseList(_ text: String, ignoreArticles: Bool = false) throws -> [SortDescriptor] {
        var result: [SortDescriptor] = []
        var offset = 0
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            defer { offset += raw.count + 1 }
            var key = raw.drop { $0 == " " }
            let lead = raw.count - key.count
            var ascending = true, articles = ignoreArticles
            while let mark = key.first, "-+~".contains(mark) {
                if mark == "-" { ascending = false } else if mark == "~" { articles = true }
                key = key.dropFirst()
            }
            let name = String(key).trimmingCharacters(in: .whitespaces)
            guard let p = MediaProperty(name: name) else {
                throw QueryError("unknown sort key '\(name)'" + PredicateParser.suggestion(for: name),
                                 query: text, position: offset + lead)
            }
            result.append(SortDescriptor(p, ascending: ascending, ignoreArticles: articles))
        }
        return result
    }

    /// Album order: a sort on `albumTitle` continues with disc then track (ascending) unless those keys
    /// are already given, so albums list in playing order.
    public static func expandingAlbumOrder(_ sort: [SortDescriptor]) -> [SortDescriptor] {
        guard let i = sort.firstIndex(where: { $0.property == .albumTitle }) else { return sort }
        let given = Set(sort.map(\.property))
        let extra = [MediaProperty.discNumber, .albumTrackNumber].filter { !given.contains($0) }.map { SortDescriptor($0) }
        return Array(sort[...i]) + extra + Array(sort[(i + 1)...])
    }

    /// The text form `parseList` reads (articles ignored only where it matters: text keys).
    public static func listDescription(_ sort: [SortDescriptor]) -> String {
        sort.map { d in
            (d.ascending ? "" : "-") + (d.ignoreArticles && kind(of: d.property) == .foldedText ? "~" : "") + d.property.rawValue
        }.joined(separator: ",")
    }
}

/// In-memory ordering by sort descriptors, identical to the ORDER BY the index compiles: each key with
/// missing values last, then the persistent ID as the final tie-break.
public struct ItemOrdering: Sendable {
    public let sort: [SortDescriptor]

    public init(_ sort: [SortDescriptor]) { self.sort = SortDescriptor.expandingAlbumOrder(sort) }

    public func areInIncreasingOrder(_ a: MediaItem, _ b: MediaItem) -> Bool { compare(a, b) < 0 }

    /// Sorts `items`, computing each item's folded sort texts once rather than at every comparison.
    public func sorted(_ items: [MediaItem]) -> [MediaItem] {
        let keyed = items.map { item in
            (item, sort.map { d -> MediaValue? in
                guard SortDescriptor.kind(of: d.property) == .foldedText, let v = item[d.property] else { return nil }
                return .text(Self.sortText(v, d))
            })
        }
        return keyed.sorted { a, b in
            for (i, d) in sort.enumerated() {
                let c: Int
                if let x = a.1[i], let y = b.1[i] {
                    c = d.ascending ? TextMatching.compare(x.text!, y.text!) : -TextMatching.compare(x.text!, y.text!)
                } else {
                    c = Self.compare(a.0, b.0, d)
                }
                if c != 0 { return c < 0 }
            }
            return a.0.persistentID < b.0.persistentID
        }.map(\.0)
    }

    public func compare(_ a: MediaItem, _ b: MediaItem) -> Int {
        for d in sort {
            let c = Self.compare(a, b, d)
            if c != 0 { return c }
        }
        return a.persistentID < b.persistentID ? -1 : (a.persistentID > b.persistentID ? 1 : 0)
    }

    static func compare(_ a: MediaItem, _ b: MediaItem, _ d: SortDescriptor) -> Int {
        let kind = SortDescriptor.kind(of: d.property)
        if kind == .pathBytes {
            let c = a.path == b.path ? 0 : (a.path < b.path ? -1 : 1)
            return d.ascending ? c : -c
        }
        switch (a[d.property], b[d.property]) {
        case (nil, nil): return 0
        case (nil, _): return 1            // missing last, whatever the direction
        case (_, nil): return -1
        case (let x?, let y?):
            let c: Int
            switch kind {
            case .foldedText: c = TextMatching.compare(sortText(x, d), sortText(y, d))
            case .isoText: c = TextMatching.compare(x.text ?? x.description, y.text ?? y.description)
            case .numeric, .pathBytes: c = NumericOrder.compare(x, y)
            }
            return d.ascending ? c : -c
        }
    }

    /// The text a `.foldedText` key sorts by (the index's `_folded` column, articles dropped if asked).
    public static func sortText(_ v: MediaValue, _ d: SortDescriptor) -> String {
        let folded = TextFolding.folded(v.text ?? v.description)
        return d.ignoreArticles ? TextMatching.strippingArticles(folded) : folded
    }
}
