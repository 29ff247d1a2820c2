import Foundation
@testable import MediaIndex
@testable import SQLiteStore
import MediaModel

/// A fresh directory under the system temp dir, removed by the caller's `defer`.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-index-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// An item as the scanner would hand it over, with a few properties of each value type set.
func sampleItem(_ path: String, title: String, artist: String = "Björk", size: Int64 = 1000) -> MediaItem {
    var item = MediaItem(path: MediaPath(path), tags: ["TITLE": title, "ARTIST": artist])
    item.title = title
    item.artist = artist
    item.albumTitle = "Homogenic"
    item.mediaType = .music
    item.playbackDuration = 241.5
    item[.albumTrackNumber] = .integer(3)
    item[.isCompilation] = .bool(false)
    item[.releaseDate] = .text("1997-09-22")
    item[.fileSize] = .integer(size)
    item[.modificationDate] = .real(1_700_000_000.25)
    item[.container] = .text("mp3")
    return item
}

func stamp(_ size: Int64, _ mtime: Int64 = 1, _ inode: Int64 = 1) -> FileStamp {
    FileStamp(size: size, mtimeNanoseconds: mtime, inode: inode)
}

extension SQLiteIndex {
    /// Adds items as a scan would and returns their ids in order.
    @discardableResult
    func add(_ items: [MediaItem], fingerprint: Int64 = 7) throws -> [Int64] {
        try apply(items.map { .add($0, stamp($0.fileSize), fingerprint: fingerprint) })
        return try items.map { try #require(try item(path: $0.path)).persistentID }
    }

    func ftsMatches(_ match: String) throws -> [Int64] {
        try textRows("SELECT rowid FROM items_fts WHERE items_fts MATCH ? ORDER BY rowid", [match]).map { Int64($0[0]!)! }
    }
}

import Testing
