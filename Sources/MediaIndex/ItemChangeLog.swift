/// Which items changed since a reader last looked: every write to `items` (a scan's adds and updates, moves,
/// folds, user data, removals, root relocations) is logged by triggers in the database, so no writer has to
/// remember it and a change made by another process is seen too. A reader keeps the `token` of its last
/// answer and asks again from it; what it gets may repeat items it has already seen (re-read them: the
/// answer is idempotent), never leave one out. Every requirement keeps the store contract (`LibraryStore`);
/// the servers' `LiveView` asks from a thread of its own, never from an event loop.
public protocol ItemChangeLog: Sendable {
    /// The token a reader that has just read everything starts from (`ItemChanges.token` of an empty log).
    func changeToken() throws -> Int64
    /// The items written or removed since `token`, or nil when the log was trimmed past it (the reader
    /// reads everything again). One read: the ids, their tokens and the next token agree with each other.
    func itemChanges(since token: Int64) throws -> ItemChanges?
    /// Drops the records of removed items older than the newest `keepingRemoved`: a reader that is further
    /// behind reads everything again. Called after a scan; cheap when there is nothing to drop.
    func trimItemChanges(keepingRemoved: Int) throws
}

/// The answer of `ItemChangeLog.itemChanges(since:)`.
public struct ItemChanges: Sendable, Equatable {
    /// The ids of the items inserted, updated or deleted since the token asked from (in no order). Which
    /// are gone is for the reader to see: they are no longer found (deleted, or hidden by a partial scan).
    public var ids: [Int64]
    /// The token of each item's last write, in the order of `ids`: a reader asked again from an unchanged
    /// token (PostgreSQL's stays while an older transaction runs) skips the items whose write it has seen.
    public var tokens: [Int64]
    /// Where the next question starts.
    public var token: Int64

    public init(ids: [Int64], tokens: [Int64] = [], token: Int64) {
        self.ids = ids
        self.tokens = tokens
        self.token = token
    }
}
