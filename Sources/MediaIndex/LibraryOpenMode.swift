/// Whether opening a library may create it. Commands that only read (or edit what is already there) open
/// `.existing`, so a mistyped path is an error ("no library at …") instead of a new, empty library that
/// makes a cron job look fine. Only what fills a library (a scan, adding roots or playlists) uses `.create`.
public enum LibraryOpenMode: Sendable, Hashable {
    /// Create the library (and its directory) when it does not exist yet; creation is atomic, so two
    /// commands starting together on a new library both see one complete library.
    case create
    /// Open a library that exists; when its file or directory is not writable it is opened read-only.
    case existing
}
