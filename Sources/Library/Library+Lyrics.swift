import Foundation
import MediaIndex
import MediaModel
import MediaProbe

// Issue 41: the lyrics a scan stored (`LyricsStore`), for every front: `mlib lyrics QUERY`, the Subsonic
// `getLyrics`/`getLyricsBySongId` calls, MPD's `readcomments`. Read from the library, never from the file:
// a front answers without opening media, and a server's host need not see the files.
extension Library {
    /// The lyrics stored for item `id`, in the reader's order (tags, then sidecars), as MediaProbe's values
    /// (`LyricsReader.preferred` picks the one to show).
    public func lyrics(ofItem id: Int64) throws -> [Lyrics] {
        try store.lyrics(ofItem: id).map(Self.lyrics)
    }

    /// A stored set as `Lyrics`: its body as written by the scan; should it not decode (written by a later
    /// mlib with fields this one lacks), its summary, as plain text.
    static func lyrics(_ stored: StoredLyrics) -> Lyrics {
        if let lyrics = try? JSONDecoder().decode(Lyrics.self, from: Data(stored.body.utf8)) { return lyrics }
        return Lyrics(source: Lyrics.Source(rawValue: stored.source) ?? .tag, origin: stored.origin, language: stored.language,
                      text: stored.text)
    }
}
