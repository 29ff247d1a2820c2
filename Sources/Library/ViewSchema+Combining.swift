import MediaModel

extension ViewSchema {
    /// A schema for fronts that share one in-memory view (`mlib serve` with the MPD port and `--http`):
    /// this schema's slots keep their numbers, `other`'s follow (its slot n is `slots.count + n` here),
    /// and the filter properties are the union of both, each once.
    ///
    /// Slots are not shared even when two fronts name the same tag: each front's slot prints the value its
    /// own way (MPD's `Artist` is split on "; ", Subsonic's is not; Subsonic's album artist falls back to
    /// the artist), so a slot stays exactly what its front asked for. A duplicate costs 4 bytes per item
    /// and its table of distinct values; the paths, ids, directory tree and per-item columns — most of a
    /// view's memory — are held once.
    public func merged(with other: ViewSchema) -> ViewSchema {
        var properties = self.properties
        for property in other.properties where !properties.contains(property) { properties.append(property) }
        return ViewSchema(slots: slots + other.slots, properties: properties)
    }

    /// Where `part`'s slots begin in this schema: the first position from which this schema's slots have
    /// `part`'s names and kinds (multi-valued or not), in its order — nil when they are not there, or
    /// when one of `part`'s filter properties is missing. A front given a view built by someone else asks
    /// this to find its slots (or to refuse a view that lacks them).
    public func slotOffset(of part: ViewSchema) -> Int? {
        guard part.properties.allSatisfy(properties.contains), part.slots.count <= slots.count else { return nil }
        guard !part.slots.isEmpty else { return 0 }
        return (0...(slots.count - part.slots.count)).first { start in
            part.slots.indices.allSatisfy { i in
                slots[start + i].name == part.slots[i].name && slots[start + i].multiValued == part.slots[i].multiValued
            }
        }
    }
}
