import MediaModel

/// Which items are books (audiobooks, podcasts, lectures…): those `mlib play` keeps a resume position for,
/// saved on pause, stop and quit and every `saveInterval` seconds while playing (issue 41).
///
/// An item is a book when its genre says so (Audiobook, Audio Book, Podcast, Spoken, Spoken Word, Speech,
/// Hörbuch, Books & Spoken, Lecture), when its file type is M4B (the
/// audiobook container), when its media type is an audiobook or podcast, or when it is longer than
/// `longThreshold` (30 minutes: no song is; a DJ mix or a symphony that long resumed where it stopped is
/// no harm).
public enum SpokenWord {
    public static let longThreshold: Double = 30 * 60
    public static let saveInterval: Double = 30
    /// Folded genre words that make an item a book (any value of a multi-valued genre).
    static let genres: Set<String> = ["audiobook", "audiobooks", "audio book", "audio books", "podcast", "podcasts", "spoken",
                                      "spoken word", "speech", "horbuch", "horbucher", "books & spoken", "lecture", "lectures"]

    public static func isBook(_ item: MediaItem) -> Bool {
        if item.values(of: .genre).contains(where: { genres.contains(TextFolding.folded($0)) }) { return true }
        if item[.fileType]?.text?.lowercased() == "m4b" { return true }
        if item.mediaType.contains(.audioBook) || item.mediaType.contains(.podcast) { return true }
        return item.playbackDuration > longThreshold
    }

    /// Where to resume a book from a saved position: nil for none, or for one within `endMargin` seconds of
    /// the end (the book was finished: it starts again).
    public static func resumePoint(_ positionMs: Int64, duration: Double) -> Double? {
        let seconds = Double(positionMs) / 1000
        guard seconds > 0 else { return nil }
        if duration > 0 && seconds > duration - endMargin { return nil }
        return seconds
    }

    static let endMargin: Double = 5
}
