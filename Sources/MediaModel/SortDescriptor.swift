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
}
