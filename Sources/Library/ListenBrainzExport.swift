import Foundation
import MediaIndex
import MediaModel

/// A history entry as a ListenBrainz listen: the "listen" payload of ListenBrainz's API documentation
/// ("JSON Documentation", https://listenbrainz.readthedocs.io/en/latest/users/json.html), one JSON object
/// per line as its user-data export writes them: `listened_at` (seconds since 1970), `track_metadata`
/// with `artist_name`, `track_name` (both required), `release_name`, and in `additional_info` the
/// documented `media_player` (the front) and `submission_client` ("mlib"), plus mlib's own `mlib_item_id`
/// and `mlib_heard` (seconds heard, when known; not `duration_ms`, which is the track's length):
/// additional_info takes any key.
/// Only plays are listens (a skip is not); an entry without artist or title (an item removed since, or
/// untagged) has none: `line(for:)` returns nil and the caller counts it.
public enum ListenBrainzExport {
    public static func line(for entry: HistoryEntry) -> String? {
        guard entry.listen.kind == .play, let artist = entry.artist, !artist.isEmpty, let title = entry.title, !title.isEmpty else { return nil }
        var info: [String: Any] = ["media_player": "mlib " + entry.listen.front.rawValue, "submission_client": "mlib",
                                   "mlib_item_id": entry.listen.itemID]
        if let heard = entry.listen.heard { info["mlib_heard"] = heard }
        var metadata: [String: Any] = ["artist_name": artist, "track_name": title, "additional_info": info]
        if let album = entry.albumTitle, !album.isEmpty { metadata["release_name"] = album }
        let listen: [String: Any] = ["listened_at": Int64(entry.listen.date.timeIntervalSince1970.rounded(.down)), "track_metadata": metadata]
        guard let data = try? JSONSerialization.data(withJSONObject: listen, options: [.sortedKeys, .withoutEscapingSlashes]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
