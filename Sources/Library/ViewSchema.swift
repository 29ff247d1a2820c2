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
        /// What `value` reads of an item, or nil when it does not say (then a build reads whole items).
        public var reads: Reads?

        /// A slot whose `value` reads only `reading` (and the raw tag map with `tags`): a view of such slots
        /// is built from those columns alone (`ViewSchema.projection`), not from whole items (issue 44: at
        /// a million items, decoding every column of every row was most of the build).
        public init(_ name: String, multiValued: Bool, reading: [MediaProperty], tags: Bool = false,
                    value: @escaping @Sendable (MediaItem) -> String?) {
            self.name = name
            self.value = value
            self.multiValued = multiValued
            reads = Reads(properties: reading, tags: tags)
        }

        /// A slot that may read anything of an item: a view with one is built from whole items.
        public init(_ name: String, multiValued: Bool, value: @escaping @Sendable (MediaItem) -> String?) {
            self.name = name
            self.value = value
            self.multiValued = multiValued
            reads = nil
        }
    }

    /// What of an item a slot (or a whole build) reads: properties, and whether the raw tag map.
    public struct Reads: Sendable, Equatable {
        public var properties: [MediaProperty]
        public var tags: Bool

        public init(properties: [MediaProperty], tags: Bool = false) {
            self.properties = properties
            self.tags = tags
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

    /// What a build of this schema's view reads of each item — every slot's reads, the filter properties,
    /// and the columns every view keeps (duration, modification time; id and path always come) — or nil
    /// when a slot does not say what it reads (then the build reads whole items).
    public var projection: Reads? {
        var properties: [MediaProperty] = [.playbackDuration, .modificationDate]
        var tags = false
        func add(_ property: MediaProperty) { if !properties.contains(property) { properties.append(property) } }
        for slot in slots {
            guard let reads = slot.reads else { return nil }
            reads.properties.forEach(add)
            tags = tags || reads.tags
        }
        self.properties.forEach(add)
        return Reads(properties: properties, tags: tags)
    }

    /// This schema with every slot reading whole items (`projection` nil): the same view, built the slow
    /// way — what the tests compare a projected build with.
    public var readingWholeItems: ViewSchema {
        var copy = self
        for i in copy.slots.indices { copy.slots[i].reads = nil }
        return copy
    }
}
