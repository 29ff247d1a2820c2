/// A store that hears every write to its library, by this process or another (PostgreSQL: the writers'
/// `NOTIFY` in their transactions, heard by a `LISTEN`ing connection): a live view then looks when told to
/// instead of every half second, and a server keeps users and stars in memory (`UserReadCache`).
public protocol WriteNotifying: LibraryStore {
    /// Another store on a connection of its own, for a live view's change feed and builds, so that the
    /// view's looks never make a request wait (issue 38: a 6-statement look every 0.5 s kept a remote
    /// library's one connection busy), reading what this store reads (`readsThisHostOnly`). `heard` is called
    /// (on a thread that must not block) after each write committed to the library, and when the listening
    /// starts or stops (a lost connection: look now, and again until the library answers). While it
    /// listens, this store answers users and stars from memory.
    func changeFeedStore(heard: @escaping @Sendable () -> Void) throws -> any LibraryStore
}
