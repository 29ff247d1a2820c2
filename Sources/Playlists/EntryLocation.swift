import MediaModel

/// Turns a location as written in a playlist into an entry location, the inverse of `PlaylistLocations`.
enum EntryLocation {
    /// A line of M3U or a PLS `FileN` value: a plain path (relative ones resolved against `base`), a `file:`
    /// URI, or another URI kept as remote.
    static func fromPathOrURI(_ text: some Collection<UInt8>, base: MediaPath) -> PlaylistEntry.Location {
        if let scheme = FileURI.scheme(of: text) { return fromURIWithScheme(scheme, text) }
        return .file(MediaPath(bytes: Array(text)).resolved(against: base))
    }

    /// An XSPF/JSPF location: a URI, or a relative reference whose `%XX` escapes are decoded before it is
    /// resolved against `base`.
    static func fromURI(_ text: some Collection<UInt8>, base: MediaPath) -> PlaylistEntry.Location {
        if let scheme = FileURI.scheme(of: text) { return fromURIWithScheme(scheme, text) }
        var ref = Array(text)
        if let cut = ref.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { ref = Array(ref[..<cut]) }
        return .file(MediaPath(bytes: FileURI.percentDecoded(ref)).resolved(against: base))
    }

    private static func fromURIWithScheme(_ scheme: String, _ text: some Collection<UInt8>) -> PlaylistEntry.Location {
        if scheme == "file", let path = FileURI.path(ofFileURI: text) { return .file(path) }
        return .remote(String(decoding: text, as: UTF8.self))
    }
}

/// Lines of a text playlist: a UTF-8 byte order mark dropped, LF or CRLF (or lone CR) endings, blank lines
/// skipped. A line longer than `PlaylistReader.lineLimit` refuses the file (it is not a playlist, and its
/// bytes would end up in messages).
enum PlaylistLines {
    static func split(_ bytes: [UInt8], path: String? = nil) throws -> [ArraySlice<UInt8>] {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lines: [ArraySlice<UInt8>] = []
        var number = 1
        var i = start
        let end = bytes.count
        func finish(_ upTo: Int) throws {
            if upTo - start > PlaylistReader.lineLimit {
                throw PlaylistError(path: path, "line \(number) is longer than \(PlaylistReader.lineLimit) bytes; not a playlist")
            }
            var blank = true
            for j in start..<upTo where bytes[j] != 0x20 && bytes[j] != 0x09 { blank = false; break }
            if !blank { lines.append(bytes[start..<upTo]) }
        }
        while i < end {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                try finish(i)
                // CRLF is one line break.
                if b == 0x0D, i + 1 < end, bytes[i + 1] == 0x0A { i += 1 }
                number += 1
                start = i + 1
            }
            i += 1
        }
        if start < end { try finish(end) }
        return lines
    }
}
