import Foundation
@testable import Library
import MediaModel
import Testing

/// A write to items the view already holds patches the snapshot (`SnapshotPatch`, issue 44): the result is
/// the snapshot a whole build of the same items makes, value for value, and its `lineage` says exactly which
/// items and slots changed, so that the fronts redo only that. Anything else (an item added, removed or
/// moved) is derived whole, with no lineage.
struct SnapshotPatchTests {
    static let schema = ViewSchema(slots: [
        .init("Title", multiValued: false) { $0.title },
        .init("Artist", multiValued: true) { $0.artist },
        .init("Album", multiValued: false) { $0.albumTitle },
        .init("Rating", multiValued: false) { $0[.rating].map { "\($0)" } },
    ], properties: [.rating, .artist, .albumTitle, .discNumber, .albumTrackNumber])

    static func item(_ path: String, id: Int64, title: String, artist: String, album: String, track: Int, rating: Int? = nil,
                     duration: Double = 180) -> MediaItem {
        var item = MediaItem(path: MediaPath(path))
        let values: [MediaProperty: MediaValue] = [.title: .text(title), .artist: .text(artist), .albumTitle: .text(album),
                                                   .albumTrackNumber: .integer(Int64(track)), .playbackDuration: .real(duration),
                                                   .modificationDate: .real(1_700_000_000)]
        for (property, value) in values { item[property] = value }
        if let rating { item[.rating] = .integer(Int64(rating)) }
        item.persistentID = id
        return item
    }

    static func build(_ items: [MediaItem]) -> LibrarySnapshot {
        LibrarySnapshot(schema: schema, version: nil, roots: [MediaPath("/m")]) { body in items.forEach(body) }
    }

    /// Every value a front reads, compared: ids, paths, slots, properties, durations, tree order, counts, totals.
    static func expectSame(_ a: LibrarySnapshot, _ b: LibrarySnapshot, _ context: String) {
        #expect(a.ids == b.ids && a.paths == b.paths, "\(context)")
        for i in 0..<Int32(a.count) {
            for s in schema.slots.indices { #expect(a.value(i, slot: s) == b.value(i, slot: s), "\(context): item \(i) slot \(s)") }
            for p in schema.properties.indices {
                let (ca, cb) = (a.propertyCells[Int(i), p], b.propertyCells[Int(i), p])
                #expect((ca == 0 ? nil : a.propertyValues[p][Int(ca)]) == (cb == 0 ? nil : b.propertyValues[p][Int(cb)]), "\(context): property \(p)")
            }
        }
        #expect(a.durations == b.durations && a.totalDuration == b.totalDuration, "\(context)")
        for s in schema.slots.indices { #expect(a.distinct(slot: s) == b.distinct(slot: s), "\(context): distinct of slot \(s)") }
        #expect(a.walkOrder == b.walkOrder, "\(context)")
        #expect(a.directories.map(\.items) == b.directories.map(\.items), "\(context)")
        #expect(a.directories.map(\.path) == b.directories.map(\.path), "\(context)")
    }

    @Test func aRatingPatchesOneItemAndSaysSo() throws {
        let items = (0..<6).map { Self.item("/m/a/\($0).flac", id: Int64($0 + 1), title: "t\($0)", artist: "A", album: "X", track: $0) }
        let old = Self.build(items)
        var rated = items[3]
        rated[.rating] = .integer(4)
        let new = old.applying(ViewChanges(upserted: [rated], removed: []), version: nil)
        let lineage = try #require(new.lineage, "a rating is a patch")
        #expect(lineage.follows(old) && !lineage.follows(new))
        #expect(lineage.items == [3])
        #expect(lineage.changedSlots == [false, false, false, true])
        #expect(!lineage.durationsChanged && !lineage.orderChanged)
        // Shared, not copied: the tree's arrays are the old snapshot's.
        #expect(new.paths.withUnsafeBufferPointer { $0.baseAddress } == old.paths.withUnsafeBufferPointer { $0.baseAddress })
        // The rating slot's distinct counts are left to be counted when asked (a pass over every item's cell
        // was half a rating's CPU at 1,000,000 items); the other slots' are the old snapshot's.
        #expect(new.distinctValues == [old.distinctValues[0], old.distinctValues[1], old.distinctValues[2], -1])
        var all = items
        all[3] = rated
        Self.expectSame(new, Self.build(all), "rating")
    }

    @Test func aNewTrackNumberReordersTheDirectoryAndTheWalk() throws {
        let items = (0..<4).map { Self.item("/m/a/\($0).flac", id: Int64($0 + 1), title: "t\($0)", artist: "A", album: "X", track: $0 + 1) }
        let old = Self.build(items)
        var moved = items[0]
        moved[.albumTrackNumber] = .integer(9)
        let new = old.applying(ViewChanges(upserted: [moved], removed: []), version: nil)
        let lineage = try #require(new.lineage)
        #expect(lineage.orderChanged && lineage.items == [0])
        #expect(new.walkOrder == [1, 2, 3, 0])
        Self.expectSame(new, Self.build([moved] + items.dropFirst()), "track")
    }

    @Test func anAddedRemovedOrMovedItemIsDerivedWhole() {
        let items = (0..<3).map { Self.item("/m/\($0).flac", id: Int64($0 + 1), title: "t", artist: "A", album: "X", track: $0) }
        let old = Self.build(items)
        let added = Self.item("/m/9.flac", id: 9, title: "n", artist: "B", album: "Y", track: 1)
        var renamed = items[1]
        renamed.path = MediaPath("/m/renamed.flac")
        for (name, changes) in [("added", ViewChanges(upserted: [added], removed: [])),
                                ("removed", ViewChanges(upserted: [], removed: [2])),
                                ("moved", ViewChanges(upserted: [renamed], removed: []))] {
            let new = old.applying(changes, version: nil)
            #expect(new.lineage == nil, "\(name)")
        }
    }

    /// Past one chunk of `CellTable` (4,096 rows): writes in the first, a middle and the last chunk patch
    /// to what a build makes.
    @Test func writesAcrossChunksPatchToWhatABuildMakes() throws {
        var items = (0..<10_000).map { Self.item("/m/\($0 / 100)/\($0).flac", id: Int64($0 + 1), title: "t\($0)", artist: "A\($0 % 7)",
                                                 album: "X\($0 / 10)", track: $0 % 10) }
        let old = Self.build(items)
        var written: [MediaItem] = []
        for n in [5, 4_096, 4_095, 8_200, 9_999] {
            items[n][.rating] = .integer(3)
            items[n].title = "new \(n)"
            written.append(items[n])
        }
        let new = old.applying(ViewChanges(upserted: written, removed: []), version: nil)
        #expect(try #require(new.lineage).items.count == 5)
        Self.expectSame(new, Self.build(items), "chunks")
        let row = try #require(old.item(path: items[4_096].path))
        #expect(old.value(row, slot: 0) == "t4096" && new.value(row, slot: 0) == "new 4096", "the old snapshot is untouched")
    }

    /// Random writes (titles, several artists with new parts, albums, ratings on and off, track numbers,
    /// durations) over a random library in several folders, patch after patch: each patched snapshot is the
    /// one a whole build makes.
    @Test(arguments: 1...8) func randomWritesPatchToWhatABuildMakes(_ seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let folders = ["/m/a", "/m/b", "/m/b/c", "/m"]
        var items = (0..<60).map { n in
            Self.item("\(folders[Int(random.next() % 4)])/\(n).mp3", id: Int64(n + 1), title: "t\(random.next() % 20)",
                      artist: ["A", "B", "A; B", "C; D"][Int(random.next() % 4)], album: ["X", "Y", ""][Int(random.next() % 3)],
                      track: Int(random.next() % 5), rating: random.next() % 2 == 0 ? Int(random.next() % 5) + 1 : nil)
        }
        var snapshot = Self.build(items)
        for round in 0..<20 {
            var written: [MediaItem] = []
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let n = Int(random.next() % UInt64(items.count))
                var item = items[n]
                switch random.next() % 6 {
                case 0: item[.title] = .text("new \(random.next() % 1000)")
                case 1: item[.artist] = .text(["E; F", "A", "G; A", "H"][Int(random.next() % 4)])
                case 2: item[.albumTitle] = .text(["X", "Z", ""][Int(random.next() % 3)])
                case 3: item[.rating] = random.next() % 3 == 0 ? nil : .integer(Int64(random.next() % 5 + 1))
                case 4: item[.albumTrackNumber] = .integer(Int64(random.next() % 7))
                default: item[.playbackDuration] = .real(Double(random.next() % 500))
                }
                items[n] = item
                written.append(item)
            }
            let patched = snapshot.applying(ViewChanges(upserted: written, removed: []), version: nil)
            let lineage = try #require(patched.lineage, "seed \(seed) round \(round)")
            #expect(Set(lineage.items).isSubset(of: Set(written.compactMap { snapshot.item(path: $0.path) })))
            Self.expectSame(patched, Self.build(items), "seed \(seed) round \(round)")
            snapshot = patched
        }
    }
}
