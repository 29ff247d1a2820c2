import MediaModel

extension Lyrics {
    /// Sets the queryable summary of a file's lyrics on `item`: `hasLyrics`, `hasSyncedLyrics` and
    /// `lyricsLanguage` (each language once, in the sets' order). One rule for what the scan stores and what
    /// `mlib info` shows of the same file.
    public static func summarize(_ sets: [(synced: Bool, language: String?)], into item: inout MediaItem) {
        item[.hasLyrics] = .bool(!sets.isEmpty)
        item[.hasSyncedLyrics] = .bool(sets.contains { $0.synced })
        var languages: [String] = []
        for case let language? in sets.map(\.language) where !language.isEmpty && !languages.contains(language) { languages.append(language) }
        item[.lyricsLanguage] = languages.isEmpty ? nil : .text(languages.joined(separator: MediaProperty.valueSeparator))
    }
}
