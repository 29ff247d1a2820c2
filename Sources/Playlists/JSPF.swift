import Foundation
import MediaModel

/// JSPF, XSPF's JSON form: `{"playlist": {"title": …, "track": [{"location": ["file:///…"], …}]}}`.
enum JSPF {
    static func writeHeader(title: String?, to out: inout ByteBuffer) {
        out.append("{\"playlist\":{")
        if let title { out.append("\"title\":"); out.append(jsonString: title); out.append(",") }
        out.append("\"track\":[")
    }

    static func append(_ item: MediaItem, number: Int, locations: PlaylistLocations, to out: inout ByteBuffer) {
        out.append(number == 1 ? "\n{\"location\":[\"" : ",\n{\"location\":[\"")
        locations.appendURILocation(item.path, to: &out)   // escaped URIs hold no JSON specials
        out.append("\"]")
        func field(_ key: String, _ s: String?) {
            guard let s else { return }
            out.append(",\"\(key)\":")
            out.append(jsonString: s)
        }
        field("title", item.title)
        field("creator", item.artist)
        field("album", item.albumTitle)
        if item.albumTrackNumber > 0 { out.append(",\"trackNum\":"); out.append(integer: item.albumTrackNumber) }
        if let ms = XSPF.milliseconds(item.playbackDuration) { out.append(",\"duration\":"); out.append(integer: ms) }
        out.append("}")
    }

    static func writeFooter(to out: inout ByteBuffer) {
        out.append("\n]}}\n")
    }

    static func read(_ bytes: [UInt8], base: MediaPath, path: String?) throws -> PlaylistDocument {
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let playlist = root["playlist"] as? [String: Any] else {
            throw PlaylistError(path: path, "not a valid JSPF playlist (expected {\"playlist\": {…}})")
        }
        var doc = PlaylistDocument(title: playlist["title"] as? String, entries: [])
        for case let track as [String: Any] in playlist["track"] as? [Any] ?? [] {
            // The spec makes `location` an array; single strings are common in the wild.
            let uri = (track["location"] as? [Any])?.first as? String ?? track["location"] as? String
            guard let uri else { continue }
            doc.entries.append(PlaylistEntry(
                location: EntryLocation.fromURI(Array(uri.utf8), base: base),
                title: track["title"] as? String, artist: track["creator"] as? String,
                album: track["album"] as? String, duration: (track["duration"] as? Double).map { $0 / 1000 }))
        }
        return doc
    }
}
