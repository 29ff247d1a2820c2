import Library
import MediaModel

extension ViewSchema {
    /// What the MPD server keeps of each item in its view: `Format` (slot 0) and MPD's tags in `tagtypes`
    /// order (slot 1 + the tag's index in `MPDTag.all`), printed as `SongWriter` prints them; and every
    /// property `FilterCompiler` compares.
    static let mpd = ViewSchema(
        slots: [ViewSchema.Slot("Format", multiValued: false, reading: [.sampleRate, .channels, .bitDepth]) { SongWriter.audioFormat($0) }]
            + MPDTag.all.map { tag in
                ViewSchema.Slot(tag.name, multiValued: tag.rawKey != nil || tag.property?.spec.type == .text,
                                reading: tag.reads.properties, tags: tag.reads.tags) { tag.value(in: $0) }
            },
        // The stream's rate, depth and channels too: `AudioFormat` filters compare them.
        properties: MPDTag.all.compactMap(\.property) + [.sampleRate, .bitDepth, .channels])
}

extension MPDTag {
    /// What `value(in:)` reads: its property (a date falls back to the year), else the raw tag map.
    var reads: ViewSchema.Reads {
        guard let property else { return ViewSchema.Reads(properties: [], tags: true) }
        return ViewSchema.Reads(properties: property == .releaseDate ? [.releaseDate, .year] : [property])
    }

    /// The tag's slot in `ViewSchema.mpd`.
    var slot: Int { Self.slots[name]! }

    private static let slots: [String: Int] = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.name, $0 + 1) })

    /// The tag's values in a view item as `list` and `count … group` see them: its parts, else its
    /// fallback's (MPD's: an album artist falls back to the artist), else `[0]`, the empty value.
    /// Each value is a key: slot in the high 32 bits, value number in the low ones (0: empty).
    func valueKeys(_ item: Int32, in view: LibrarySnapshot) -> [UInt64] {
        for tag in [self] + fallbacks {
            let slot = tag.slot
            let value = view.cell(item, slot: slot)
            if value != 0 { return view.parts(value, slot: slot).map { UInt64(slot) << 32 | UInt64($0) } }
        }
        return [0]
    }
}

/// A tag's slot and its fallbacks' (`MPDTag.valueKeys`), looked up once per command rather than per item.
struct TagSlots {
    let slots: [Int]

    init(_ tag: MPDTag) { slots = ([tag] + tag.fallbacks).map(\.slot) }

    init(slots: [Int]) { self.slots = slots }

    /// Calls `body` with the position in `slots` and the value number of each of the tag's values in
    /// `item` (its parts, else its fallback's), or with (0, 0) for none.
    @inline(__always) func forEachValue(_ item: Int32, in view: LibrarySnapshot, _ body: (Int, UInt32) -> Void) {
        for (position, slot) in slots.enumerated() {
            let value = view.cell(item, slot: slot)
            guard value != 0 else { continue }
            if view.isMultiValued(value, slot: slot) {
                for part in view.parts(value, slot: slot) { body(position, part) }
            } else {
                body(position, value)
            }
            return
        }
        body(0, 0)
    }

    /// Per position, an array as long as that slot's value table (for counting by value number).
    func tables<T>(_ view: LibrarySnapshot, _ initial: T) -> [[T]] {
        slots.map { [T](repeating: initial, count: view.slotValues[$0].count) }
    }

    func string(_ position: Int, _ value: UInt32, in view: LibrarySnapshot) -> String {
        value == 0 ? "" : view.string(value, slot: slots[position])
    }
}

extension LibrarySnapshot {
    /// The text of a key made by `MPDTag.valueKeys`.
    func string(key: UInt64) -> String {
        let value = UInt32(truncatingIfNeeded: key)
        return value == 0 ? "" : string(value, slot: Int(key >> 32))
    }
}
