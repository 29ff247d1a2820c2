/// An index section of a sorted result, as `MPMediaQuerySection`: a title ("A"…"Z", or "#" for anything
/// that does not start with a letter) and the range of positions it covers.
public struct MediaQuerySection: Sendable, Hashable {
    public var title: String
    public var range: Range<Int>

    public init(title: String, range: Range<Int>) {
        self.title = title
        self.range = range
    }

    /// The section title of a sort text: its first letter, folded and upper-cased, or "#".
    public static func title(for text: String?, ignoreArticles: Bool = false) -> String {
        guard let text else { return "#" }
        var folded = TextFolding.folded(text)
        if ignoreArticles { folded = TextMatching.strippingArticles(folded) }
        guard let first = folded.unicodeScalars.first(where: { !$0.properties.isWhitespace }),
              first.properties.isAlphabetic else { return "#" }
        return String(first).uppercased()
    }

    /// Sections over consecutive runs of equal titles.
    public static func sections(titles: [String]) -> [MediaQuerySection] {
        var result: [MediaQuerySection] = []
        var start = 0
        for i in titles.indices where i + 1 == titles.count || titles[i + 1] != titles[i] {
            result.append(MediaQuerySection(title: titles[i], range: start..<(i + 1)))
            start = i + 1
        }
        return result
    }
}

extension MediaQuery {
    /// The property sections are titled by: the first sort key, else the grouping property.
    private var sectionKey: SortDescriptor { effectiveSort.first ?? SortDescriptor(grouping.property) }

    /// Sections of `items`, which must be this query's result (so in its order).
    public func itemSections(_ items: [MediaItem]) -> [MediaQuerySection] {
        let key = sectionKey
        return MediaQuerySection.sections(titles: items.map { item in
            MediaQuerySection.title(for: item[key.property].map { $0.text ?? $0.description }, ignoreArticles: key.ignoreArticles)
        })
    }

    /// Sections of `collections` (this query's), titled by collection name.
    public func collectionSections(_ collections: [MediaCollection]) -> [MediaQuerySection] {
        MediaQuerySection.sections(titles: collections.map { MediaQuerySection.title(for: $0.name) })
    }
}
