import Foundation
import MediaModel

/// The plain JSON form: an array of item objects (`MediaItem.json()`, shared with `ls --json`). Reading needs only `path` (string or
/// `{"bytes": […]}`, relative ones resolved against the playlist's folder), `title`, `artist`, `albumTitle`
/// and `playbackDuration`; `{"items": […]}` is accepted too.
enum JSONPlaylist {
    static func read(_ bytes: [UInt8], base: MediaPath, path: String?) throws -> PlaylistDocument {
        let root = try? JSONSerialization.jsonObject(with: Data(bytes))
        guard let list = root as? [Any] ?? (root as? [String: Any])?["items"] as? [Any] else {
            throw PlaylistError(path: path, "not a JSON playlist (expected an array of items)")
        }
        var doc = PlaylistDocument(entries: [])
        for (i, element) in list.enumerated() {
            guard let object = element as? [String: Any], let entryPath = itemPath(fromJSON: object["path"]) else {
                throw PlaylistError(path: path, "item \(i + 1) has no usable \"path\"")
            }
            doc.entries.append(PlaylistEntry(
                location: .file(entryPath.resolved(against: base)),
                title: object["title"] as? String, artist: object["artist"] as? String,
                album: object["albumTitle"] as? String, duration: object["playbackDuration"] as? Double))
        }
        return doc
    }

    /// A path as `MediaPath.json` writes it: a string, or `{"bytes": [..]}`.
    static func itemPath(fromJSON value: Any?) -> MediaPath? {
        if let s = value as? String { return MediaPath(s) }
        guard let o = value as? [String: Any], let list = o["bytes"] as? [Any] else { return nil }
        var bytes: [UInt8] = []
        for v in list {
            guard let n = v as? Int, (0...255).contains(n) else { return nil }
            bytes.append(UInt8(n))
        }
        return MediaPath(bytes: bytes)
    }
}
