import MediaModel

/// What a front wants the in-memory view (`LibrarySnapshot`) to keep of each item: its printed fields
/// ("slots", each a text value the front prints, e.g. MPD's `Artist` or `Format`) and the properties its
/// filters compare (kept as the store's values, so `PredicateEvaluator` answers as the store's SQL does).
/// Only these are kept: a whole `MediaItem` with its tag map is ~2 KB; a view item is a few hundred bytes.
public struct ViewSchema: Sendable {
    public struct Slot: Sendable {
        public var name: String
        /// The printed value, nil when the item has none.
        public var value: @Sendable (MediaItem) -> String?
        /// Whether a value holds several, joined with "; " (as the index stores multi-valued tags).
        public var multiValued: Bool

        public init(_ name: String, multiValued: Bool, value: @escaping @Sendable (MediaItem) -> String?) {
            self.name = name
            self.value = value
            self.multiValued = multiValued
        }
    }

    public var slots: [Slot]
    /// Properties kept for filtering. `path` and `modificationDate` are always kept (as columns).
    public var properties: [MediaProperty]

    public init(slots: [Slot], properties: [MediaProperty]) {
        self.slots = slots
        self.properties = properties.filter { $0 != .path && $0 != .modificationDate }
    }

    public func slotIndex(named name: String) -> Int? { slots.firstIndex { $0.name == name } }
}
