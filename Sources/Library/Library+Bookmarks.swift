import Foundation
import MediaIndex
import MediaModel

// Resume (issue 41): a book's position is a bookmark of the user's (`BookmarkStore`), the same ones the
// Subsonic API lists, so a book paused in `mlib play` resumes there in a Subsonic client and back.
extension Library {
    /// The comment a position saved by a player carries (a bookmark the user made keeps theirs).
    public static let resumeComment = "resume"

    /// Where to resume `item` for `user` (nil: the owner): its bookmark, when it is a book
    /// (`SpokenWord.isBook`) and the bookmark is not at its end.
    public func resumePosition(of item: MediaItem, user: String?) throws -> Double? {
        guard item.persistentID > 0, SpokenWord.isBook(item),
              let bookmark = try store.bookmark(ofItem: item.persistentID, user: user) else { return nil }
        return SpokenWord.resumePoint(bookmark.positionMs, duration: item.playbackDuration)
    }

    /// Saves `user`'s position in `item` when it is a book (other items are not resumed); a bookmark's own
    /// comment is kept. Returns whether it saved.
    @discardableResult
    public func saveResumePosition(_ seconds: Double, of item: MediaItem, user: String?) throws -> Bool {
        guard item.persistentID > 0, SpokenWord.isBook(item), seconds.isFinite, seconds >= 0 else { return false }
        let comment = try store.bookmark(ofItem: item.persistentID, user: user)?.comment ?? Self.resumeComment
        try store.setBookmark(ofItem: item.persistentID, user: user, positionMs: Int64((seconds * 1000).rounded()), comment: comment)
        return true
    }

    /// A book played to its end starts again next time: the position a player saved goes.
    public func finishedBook(_ item: MediaItem, user: String?) throws {
        guard item.persistentID > 0, SpokenWord.isBook(item),
              try store.bookmark(ofItem: item.persistentID, user: user)?.comment == Self.resumeComment else { return }
        try store.deleteBookmark(ofItem: item.persistentID, user: user)
    }
}
