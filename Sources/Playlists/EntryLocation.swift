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

/// Lines of a text playlist: a UTF-8 byte order mark dropped, LF or CRLF (or lone CR) endings, blank lines skipped.
enum PlaylistLines {
    static func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        return body.split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D })
            .filter { line in !line.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
    }
}
