import Foundation
import MediaIndex
import MediaModel
import Playlists

/// Resolves a playlist file's entries to indexed items by path (`mlib playlist import`, and the mirrors
/// of playlist files that scans keep).
public enum PlaylistImporter {
    public struct Result: Sendable {
        public var itemIDs: [Int64] = []
        /// 1-based entry numbers and the entries that did not resolve.
        public var unresolved: [(Int, PlaylistEntry)] = []
    }

    public static func resolve(_ document: PlaylistDocument, in index: any LibraryStore) throws -> Result {
        var result = Result()
        for (i, entry) in document.entries.enumerated() {
            guard let path = entry.path, let item = try item(at: path, in: index) else {
                result.unresolved.append((i + 1, entry))
                continue
            }
            result.itemIDs.append(item.persistentID)
        }
        return result
    }

    /// The item at `path`, or at its real path when a symlink leads there.
    public static func item(at path: MediaPath, in index: any LibraryStore) throws -> MediaItem? {
        if let item = try index.item(path: path) { return item }
        guard let real = path.withCString({ realpath($0, nil) }) else { return nil }
        defer { free(real) }
        let realPath = MediaPath(bytes: Array(UnsafeBufferPointer(start: UnsafeRawPointer(real).assumingMemoryBound(to: UInt8.self), count: strlen(real))))
        return realPath == path ? nil : try index.item(path: realPath)
    }

    /// The playlist named after its file: `party.m3u8` → `party`.
    public static func defaultName(_ path: MediaPath) -> String {
        let file = path.lastComponent.string
        let ext = path.fileExtension
        return ext.isEmpty ? file : String(file.dropLast(ext.count + 1))
    }
}
