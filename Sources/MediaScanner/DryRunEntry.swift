import MediaModel

/// One line of `mlib scan --dry-run`: a media file with what the scan would do with it (`FileVerdict`:
/// read it new, read it again, or leave it), or an entry an exclude list leaves out, with the pattern and
/// where it came from.
public struct DryRunEntry: Sendable, Hashable, Codable {
    public var path: MediaPath
    /// "pattern (.mlibignore:3 in /music)" or "pattern (--exclude)"; nil for a file the scan walks.
    public var excludedBy: String?
    /// For a file the scan walks: what it would do with it; nil for an excluded entry.
    public var verdict: FileVerdict?
}
