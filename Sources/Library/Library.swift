import Foundation
import MediaIndex
import MediaModel
import TagWriting

/// One library and what can be done with it, the same for every front (`mlib`, `mlib watch`, `mlib serve`)
/// and every Swift program: open it where users expect it, scan it under the lock its store needs (with
/// playlist files mirrored after), record plays by the one statistics rule, list a playlist's items by
/// the one smart-playlist evaluator. In the spirit of MPD's `DatabaseGlue` + `UpdateService`: the fronts
/// parse and print; none of them knows which store it has.
///
/// `store` gives the store protocols (`LibraryReader`, `PlaylistStore`, `UserDataStore`, …) for queries.
public final class Library: Sendable {
    /// The store, for queries and edits through its protocols.
    public let store: any LibraryStore
    /// Where the library lives; nil for a store opened by the caller (an in-memory SQLite index), which
    /// has no scan lock to take (nothing else can reach it).
    public let locator: LibraryLocator?
    /// Covers for every front that serves this library (one look-up, one cache: `CoverLookup`).
    public let covers = CoverLookup()
    /// What `open` completed of tag writes an interrupted `mlib tag` (or `Library.writeTags`) left
    /// (`TagJournal.recoverInterruptedWrites`), for the front to show (`messages`); empty when nothing was.
    public let tagRecovery: TagJournal.Recovery

    /// A library over a store already open. Scans of it take the lock `locator` calls for (none when nil).
    public convenience init(store: any LibraryStore, locator: LibraryLocator? = nil) {
        self.init(store: store, locator: locator, tagRecovery: TagJournal.Recovery())
    }

    init(store: any LibraryStore, locator: LibraryLocator?, tagRecovery: TagJournal.Recovery) {
        self.store = store
        self.locator = locator
        self.tagRecovery = tagRecovery
    }

    /// Opens the library at `locator`, or at the default location (`defaultLocator`).
    ///
    /// `mode` is `.existing` unless the caller is about to fill the library: whatever only reads (or edits
    /// what is there) must never create one, so a mistyped path is `IndexError.noLibrary` instead of a new,
    /// empty library that makes a cron job look fine. Only a scan of directories (or adding roots or
    /// playlists) opens `.create`.
    ///
    /// First it completes what an interrupted tag write left (`tagRecovery`): no program that opens the
    /// library (`mlib serve`, `mlib watch`, a Swift program) reads a half-written file.
    /// `recoveringTagWrites: false` is for a front that has just run the recovery itself (the CLI does, first
    /// thing, for every command): a second pass finds nothing and costs a command's start another look.
    public static func open(_ locator: LibraryLocator? = nil, mode: LibraryOpenMode = .existing,
                            recoveringTagWrites: Bool = true) throws -> Library {
        let locator = locator ?? defaultLocator()
        let recovery = recoveringTagWrites ? TagJournal.recoverInterruptedWrites() : TagJournal.Recovery()
        return Library(store: try locator.open(mode), locator: locator, tagRecovery: recovery)
    }

    /// Where a library is when nobody says: `$MLIB_LIBRARY` (a path, `sqlite:PATH` or a `postgres://` URL),
    /// else `$XDG_DATA_HOME/mlib/library.sqlite` (XDG_DATA_HOME defaulting to `~/.local/share`).
    public static func defaultLocator(environment: [String: String] = ProcessEnvironment.values(["MLIB_LIBRARY", "XDG_DATA_HOME", "HOME"])) -> LibraryLocator {
        if let p = environment["MLIB_LIBRARY"], !p.isEmpty { return LibraryLocator(p) }
        // The XDG spec: a relative XDG_DATA_HOME is invalid and ignored (it named a library under the cwd).
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return .sqlite(path: data + "/mlib/library.sqlite")
    }
}
