import DLNAServer
import Foundation
@testable import Library
import MediaIndex
import MediaModel
import MPDServer
import PostgresTestServer
import SubsonicServer
import Testing

/// The view `mlib serve` builds for its fronts reads only what their slots and filters read (issue 44:
/// `ViewSchema.projection`, each slot naming its properties and whether it reads the raw tag map): on both
/// stores, every slot, part and filter value of the projected build equals the one built from whole items,
/// on a library where every property is set, MPD's raw tags (Performer, Work, ArtistSort…) are there, and
/// tags hold several values.
struct ProjectedViewBuildTests {
    /// The three fronts' slots in one view, as `mlib serve --http --dlna` builds it.
    static let served = MPDServer.viewSchema.merged(with: SubsonicServer.viewSchema).merged(with: DLNAServer.viewSchema)

    @Test func everyFrontsSchemaSaysWhatItReads() throws {
        for schema in [MPDServer.viewSchema, SubsonicServer.viewSchema, DLNAServer.viewSchema, Self.served] {
            #expect(schema.projection != nil, "\(schema.slots.filter { $0.reads == nil }.map(\.name))")
        }
        // MPD's raw-tag slots need the tag map; the API's and DLNA's do not.
        #expect(MPDServer.viewSchema.projection?.tags == true)
        #expect(SubsonicServer.viewSchema.projection?.tags == false && DLNAServer.viewSchema.projection?.tags == false)
        #expect(Self.served.readingWholeItems.projection == nil)
    }

    @Test(arguments: Store.available) func theProjectedViewEqualsTheOneBuiltFromWholeItems(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let items = (0..<12).map(Self.item)
        try index.apply(items.map { .add($0, FileStamp(size: $0.fileSize, mtimeNanoseconds: 1, inode: 1), fingerprint: 7) },
                        generation: nil)
        let ids = try items.map { try #require(try index.item(path: $0.path)).persistentID }
        // User data, which a scan never writes: a rating, plays, a last play.
        try index.setRating(id: ids[1], 4)
        try index.recordPlay(id: ids[2], at: Date(timeIntervalSince1970: 1_700_000_123))
        try index.recordPlay(id: ids[2], at: Date(timeIntervalSince1970: 1_700_000_456))

        let projected = try LibrarySnapshot.build(from: index, schema: Self.served, version: nil)
        let whole = try LibrarySnapshot.build(from: index, schema: Self.served.readingWholeItems, version: nil)
        try #require(projected.count == items.count && whole.count == items.count, "\(store)")
        #expect(projected.ids == whole.ids && projected.paths == whole.paths && projected.durations == whole.durations, "\(store)")
        #expect(zip(projected.modified, whole.modified).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }, "\(store)")
        for (s, slot) in Self.served.slots.enumerated() {
            // Each slot holds a value somewhere (else a slot reading too little would pass unseen).
            #expect((0..<Int32(whole.count)).contains { whole.value($0, slot: s) != nil }, "\(store): no item has \(slot.name)")
            for i in 0..<Int32(whole.count) {
                #expect(projected.value(i, slot: s) == whole.value(i, slot: s), "\(store) \(slot.name) of \(whole.paths[Int(i)])")
                let parts = { (view: LibrarySnapshot) in view.parts(view.cell(i, slot: s), slot: s).map { view.string($0, slot: s) } }
                #expect(parts(projected) == parts(whole), "\(store) \(slot.name)'s parts of \(whole.paths[Int(i)])")
            }
        }
        for (p, property) in Self.served.properties.enumerated() {
            for i in 0..<whole.count {
                let value = { (view: LibrarySnapshot) in view.propertyValues[p][Int(view.propertyCells[i, p])] }
                #expect(value(projected) == value(whole), "\(store) \(property) of \(whole.paths[i])")
            }
        }
        // Multi-valued tags came through split: MPD's Performer (a raw tag) and Genre.
        let performer = try #require(MPDServer.viewSchema.slotIndex(named: "Performer"))
        #expect(projected.parts(projected.cell(0, slot: performer), slot: performer).count == 2, "\(store)")
    }

    /// Item `n`: every property set (text, numbers, dates, flags), MPD's raw tags, several values in the
    /// artist, genre and performer; item 3 a video, item 5 with almost nothing (a file without tags).
    static func item(_ n: Int) -> MediaItem {
        let path = "/music/Artist \(n % 3)/Album \(n % 4)/\(String(format: "%02d", n)) song.flac"
        guard n != 5 else {
            var bare = MediaItem(path: MediaPath(path), tags: [:])
            bare[.fileSize] = .integer(1_000)
            bare[.modificationDate] = .real(1_600_000_000)
            return bare
        }
        var tags: [String: String] = [:]
        for key in ["ARTISTSORT", "ALBUMSORT", "ALBUMARTISTSORT", "NAME", "ORIGINALDATE", "COMPOSERSORT", "CONDUCTOR",
                    "WORK", "MOVEMENTNAME", "MOVEMENT", "ENSEMBLE", "LOCATION", "LABEL", "MUSICBRAINZ_WORKID"] {
            tags[key] = "\(key.lowercased()) \(n % 4)"
        }
        tags["PERFORMER"] = "Performer \(n % 2); Guest \(n % 3)"
        var item = MediaItem(path: MediaPath(path), tags: tags)
        for property in MediaProperty.allCases where property != .persistentID && property != .path {
            switch property.spec.type {
            case .text: item[property] = .text("\(property.rawValue) \(n % 5)")
            case .date: item[property] = .text(n % 2 == 0 ? "\(1990 + n)-0\(n % 9 + 1)-1\(n % 9)" : "\(1990 + n)")
            case .integer: item[property] = .integer(Int64(n * 37 + 1))
            case .real, .timestamp, .duration: item[property] = .real(1_600_000_000.5 + Double(n * 1_000))
            case .bool: item[property] = .bool(n % 2 == 0)
            case .mediaType: item[property] = .integer(n == 3 ? MediaType.movie.rawValue : MediaType.music.rawValue)
            }
        }
        item[.tagRating] = .integer(Int64(n % 6))
        item.playbackDuration = 180.25 + Double(n)
        item.artist = "Artist \(n % 3); Featured \(n % 2)"
        item.genre = "Rock; Jazz \(n % 2)"
        item[.sampleRate] = .integer(44_100)
        item[.channels] = .integer(2)
        item[.bitDepth] = .integer(n % 2 == 0 ? 16 : 24)
        if n % 4 == 1 { item[.releaseDate] = nil }   // MPD's Date falls back to the year
        if n % 3 == 1 { item[.albumArtist] = nil }   // the API's album artist falls back to the artist
        return item
    }
}
