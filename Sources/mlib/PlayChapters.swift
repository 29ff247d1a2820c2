import MediaProbe

/// `mlib play`'s chapter keys: `]` to the next chapter's start, `[` back to the current chapter's start, or
/// to the previous chapter's within 3 s of it (as p goes back to the start of an item first). The chapters
/// are the now-playing file's, as `mlib info --chapters` lists them (read when a key asks, once per item).
enum PlayChapters {
    /// Where `]` goes from `position`: the next chapter's start; nil after the last chapter's start.
    static func next(_ chapters: [ChapterInfo], from position: Double) -> Double? {
        chapters.first { $0.start > position + 0.5 }?.start
    }

    /// Where `[` goes from `position`; nil when the file has no chapters (or none has started).
    static func previous(_ chapters: [ChapterInfo], from position: Double) -> Double? {
        guard let i = chapters.lastIndex(where: { $0.start <= position + 0.5 }) else { return nil }
        return position - chapters[i].start > 3 || i == 0 ? chapters[i].start : chapters[i - 1].start
    }
}
