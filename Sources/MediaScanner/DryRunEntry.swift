import MediaModel

/// One line of `mlib scan --dry-run`: a media file the scan would read, or an entry an exclude list leaves
/// out, with the pattern and where it came from.
public struct DryRunEntry: Sendable, Hashable, Codable {
    public var path: MediaPath
    /// "pattern (.mlibignore:3 in /music)" or "pattern (--exclude)"; nil for a file the scan would read.
    public var excludedBy: String?
}
