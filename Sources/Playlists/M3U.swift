import MediaModel

/// Extended M3U: `#EXTM3U`, then per entry `#EXTINF:<seconds>,<artist> - <title>` and the location line.
enum M3U {
    static func writeHeader(title: String?, to out: inout ByteBuffer) {
        out.append("#EXTM3U\n")
        if let title { out.append("#PLAYLIST:"); out.append(oneLine: title); out.append("\n") }
    }

    static func append(_ item: MediaItem, utf8Only: Bool, locations: PlaylistLocations, to out: inout ByteBuffer) {
        out.append("#EXTINF:")
        let seconds = item.playbackDuration
        if seconds > 0, seconds.isFinite { out.append(integer: Int64(seconds.rounded())) } else { out.append("-1") }
        out.append(UInt8(ascii: ","))
        out.append(displayTitleOf: item)
        out.append(UInt8(ascii: "\n"))
        locations.appendLineLocation(item.path, utf8Only: utf8Only, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// Reads plain or extended M3U. `#EXTINF` gives the next entry's duration and title (the whole
    /// "Artist - Title" text: it cannot be split reliably); `#PLAYLIST:` the document title; other `#` lines
    /// are comments. Relative locations are resolved against `base`, the playlist file's folder.
    static func read(_ bytes: [UInt8], base: MediaPath, path: String? = nil) throws -> PlaylistDocument {
        var doc = PlaylistDocument(entries: [])
        var pending: (duration: Double?, title: String?)?
        for untrimmed in try PlaylistLines.split(bytes, path: path) {
            // Blank space around an entry is not part of the path (MPD and players trim it too).
            let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard let first = untrimmed.firstIndex(where: { !isBlank($0) }), let last = untrimmed.lastIndex(where: { !isBlank($0) }) else { continue }
            let line = untrimmed[first...last]
            if line.first == UInt8(ascii: "#") {
                let text = String(decoding: line, as: UTF8.self)
                if text.hasPrefix("#EXTINF:") { pending = parseExtinf(text.dropFirst(8)) }
                else if text.hasPrefix("#PLAYLIST:") { doc.title = String(text.dropFirst(10)) }
                continue
            }
            var entry = PlaylistEntry(location: EntryLocation.fromPathOrURI(line, base: base))
            entry.duration = pending?.duration
            entry.title = pending?.title
            doc.entries.append(entry)
            pending = nil
        }
        return doc
    }

    /// `123,Artist - Title`, or with IPTV-style attributes `-1 tvg-name="a,b",Title`: the title follows the
    /// first comma outside quotes; the duration is the first token; -1 or garbage means unknown.
    static func parseExtinf(_ s: Substring) -> (duration: Double?, title: String?) {
        var inQuotes = false
        var comma: Substring.Index?
        for i in s.indices {
            if s[i] == "\"" { inQuotes.toggle() } else if s[i] == ",", !inQuotes { comma = i; break }
        }
        let head = comma.map { s[..<$0] } ?? s
        let token = head.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
        let duration = Double(token).flatMap { $0 >= 0 ? $0 : nil }
        let title = comma.map { String(s[s.index(after: $0)...]) }.flatMap { $0.isEmpty ? nil : $0 }
        return (duration, title)
    }
}
