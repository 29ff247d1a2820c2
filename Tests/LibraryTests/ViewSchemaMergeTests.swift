import Library
import MediaModel
import Testing

/// `ViewSchema.merged(with:)` and `slotOffset(of:)`: how two fronts share one view and find their slots in it.
struct ViewSchemaMergeTests {
    static let first = ViewSchema(slots: [
        .init("Title", multiValued: false) { $0.title },
        .init("Artist", multiValued: true) { $0.artist },
    ], properties: [.artist, .rating])
    static let second = ViewSchema(slots: [
        .init("title", multiValued: false) { $0.title },
        .init("artist", multiValued: false) { $0.artist },
        .init("album", multiValued: false) { $0.albumTitle },
    ], properties: [.rating, .genre])

    @Test func theFirstKeepsItsSlotNumbersAndTheSecondFollows() {
        let merged = Self.first.merged(with: Self.second)
        #expect(merged.slots.map(\.name) == ["Title", "Artist", "title", "artist", "album"])
        #expect(merged.properties == [.artist, .rating, .genre], "each property once")
        #expect(merged.slotOffset(of: Self.first) == 0)
        #expect(merged.slotOffset(of: Self.second) == 2)
        #expect(Self.second.merged(with: Self.first).slotOffset(of: Self.first) == 3)
    }

    @Test func aSchemaWithoutTheSlotsOrThePropertiesIsRefused() {
        #expect(Self.first.slotOffset(of: Self.second) == nil, "slots missing")
        let sameSlotsFewerProperties = ViewSchema(slots: Self.second.slots, properties: [.rating])
        #expect(sameSlotsFewerProperties.slotOffset(of: Self.second) == nil, "a filter property missing")
        let otherKind = ViewSchema(slots: [.init("Title", multiValued: false) { $0.title }, .init("Artist", multiValued: false) { $0.artist }],
                                   properties: [.artist, .rating])
        #expect(otherKind.slotOffset(of: Self.first) == nil, "a slot of another kind (multi-valued or not)")
    }
}
