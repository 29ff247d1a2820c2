import MediaModel

/// Whether a path lies inside a library root, by its components: the scanner's root test, and the first
/// step of `Library`'s `FileContainment` (a client's path, a file to serve), so none of them can reach a
/// file outside the roots by a path like `root/../etc`.
///
/// The test is on the path's components, never on a byte prefix: a path with an empty, `.` or `..`
/// component is refused outright (the kernel resolves `root/../x` to a sibling of the root, though its
/// bytes start with the root's), as MPD refuses such a URI with "Malformed path" (`uri_safe_local`).
/// Symlinks inside a root are not resolved here: the scanner follows a symlink that leads out of every
/// root (as MPD's `follow_outside_symlinks`, on by default), so such a file is part of the library under
/// its path in the root; a client can name only paths that are in the root already and create none.
public enum RootContainment {
    /// The root among `roots` that holds `path` (the root itself or a path below it; the longest root
    /// when roots nest), or nil when none does or the path is not in the plain form roots are stored in
    /// (absolute, no `.`, `..` or empty component; one trailing slash is allowed).
    public static func root(holding path: MediaPath, among roots: [MediaPath]) -> MediaPath? {
        guard isPlainAbsolute(path) else { return nil }
        var best: MediaPath?
        for root in roots where isInside(path, root) {
            if best == nil || root.bytes.count > best!.bytes.count { best = root }
        }
        return best
    }

    /// Whether `path` is absolute with only real names as components: what `realpath` gives and what a
    /// containment test can trust.
    public static func isPlainAbsolute(_ path: MediaPath) -> Bool {
        guard path.bytes.first == slash else { return false }
        var body = path.bytes.dropFirst()
        if body.last == slash { body = body.dropLast() }
        return body.isEmpty || isSafeRelative(body)
    }

    /// MPD's `uri_safe_local`: a relative path made only of real names, with no empty, `.` or `..`
    /// component and no leading slash.
    /// One pass over the bytes, inlinable so that each caller's collection type is specialized: every path
    /// a client names comes through here, and the generic `split` it was (an array of slices, unspecialized
    /// across modules) was a tenth of the MPD server's CPU for a `lsinfo` of a three-letter directory.
    @inlinable
    public static func isSafeRelative<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        // The current component's length and how many of its bytes are dots: "" , "." and ".." are refused.
        var length = 0, dots = 0
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if length == dots && length <= 2 { return false }
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return !(length == dots && length <= 2)
    }

    private static func isInside(_ path: MediaPath, _ root: MediaPath) -> Bool {
        let r = root.bytes.last == slash && root.bytes.count > 1 ? root.bytes.dropLast() : root.bytes[...]
        guard path.bytes.starts(with: r) else { return false }
        let rest = path.bytes.dropFirst(r.count)
        // "/music2" is not inside "/music"; "/" holds every absolute path.
        return rest.isEmpty || rest.first == slash || r.last == slash
    }

    private static let slash = UInt8(ascii: "/")
}
