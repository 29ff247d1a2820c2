import Library
import MediaModel
import MediaScanner

/// MPD URIs over mlib's absolute paths. With one root, a URI is the path relative to it, exactly as
/// MPD's are relative to `music_directory` (the same files give the same URIs from both servers); with
/// several, each root is a top-level directory named after its last component (made unique with " (2)").
struct LibraryURIs: Sendable {
    struct Mount: Sendable {
        var name: String       // "" for the single root
        var root: MediaPath
    }

    let mounts: [Mount]

    init(roots: [MediaPath]) {
        if roots.count == 1 {
            mounts = [Mount(name: "", root: roots[0])]
            return
        }
        var used: Set<String> = []
        mounts = roots.sorted().map { root in
            let base = root.lastComponent.string.isEmpty ? "root" : root.lastComponent.string
            var name = base
            var n = 2
            while used.contains(name) {
                name = "\(base) (\(n))"
                n += 1
            }
            used.insert(name)
            return Mount(name: name, root: root)
        }
    }

    /// The URI of a file, or nil when it lies under no root. A name that is not UTF-8 is written by
    /// `MediaPath.reversibleText` (its bytes as U+EF80…U+EFFF), so that the URI names the file again when
    /// a client sends it back (mpd itself leaves such files out of its database).
    func uri(of path: MediaPath) -> String? {
        for mount in mounts where path.hasPrefix(directory: mount.root) {
            let relative = MediaPath.reversibleText(path.bytes.dropFirst(mount.root.bytes.count + (mount.root.bytes.last == UInt8(ascii: "/") ? 0 : 1)))
            return mount.name.isEmpty ? relative : mount.name + "/" + relative
        }
        return nil
    }

    /// The absolute path a URI (file or directory; "" is the top) names, or nil when no root holds it.
    /// Every client-given path comes through here: one with an empty, `.` or `..` component names
    /// nothing (`FileContainment.clientPath`), so no command reaches outside the roots. (MPD's answers for such a
    /// path are its answers for a missing one, except `update`'s "Malformed path" and `base`'s "Bad URI".)
    func path(of uri: String) -> MediaPath? {
        let trimmed = Self.normalized(uri)
        guard Self.isSafe(trimmed) else { return nil }
        if mounts.count == 1 && mounts[0].name.isEmpty {
            return FileContainment.clientPath(trimmed, below: mounts[0].root)
        }
        guard !trimmed.isEmpty else { return nil }
        let parts = trimmed.split(separator: "/", maxSplits: 1).map(String.init)
        guard let mount = mounts.first(where: { $0.name == parts[0] }) else { return nil }
        return FileContainment.clientPath(parts.count == 1 ? "" : parts[1], below: mount.root)
    }

    /// The top-level directories (several roots) — nil with one root, whose files sit at the top.
    var topDirectories: [String]? {
        mounts.count == 1 && mounts[0].name.isEmpty ? nil : mounts.map(\.name)
    }

    /// Whether a normalized URI is the top ("") or a relative path of real names (MPD's `uri_safe_local`).
    static func isSafe(_ normalized: String) -> Bool {
        normalized.isEmpty || RootContainment.isSafeRelative(normalized.utf8)
    }

    /// Without leading/trailing slashes; "/" and "" both mean the top.
    static func normalized(_ uri: String) -> String {
        // Most URIs have no slash at either end: handed back as they are (Substring's prefix and suffix
        // tests were ~1,600 instructions a call, twice a `lsinfo DIR`).
        let slash = UInt8(ascii: "/")
        if uri.utf8.first != slash && uri.utf8.last != slash { return uri }
        var s = Substring(uri)
        while s.hasPrefix("/") { s = s.dropFirst() }
        while s.hasSuffix("/") { s = s.dropLast() }
        return String(s)
    }
}

extension LibrarySnapshot.Directory {
    /// The directory's name in URIs: its `name` (for display, U+FFFD where the bytes are not UTF-8), or,
    /// for a name that is not UTF-8 or holds U+EF80…U+EFFF, its bytes by `MediaPath.reversibleText`, the
    /// rule `LibraryURIs.path(of:)` reverses (so `lsinfo` of the name it listed finds the directory).
    /// (`unicodeScalars.contains`: the string `contains` is Foundation's search, ~10% of a `lsinfo`.)
    /// Both signs start with a byte of at least 0xEE in UTF-8 (U+EF80… is EE BE/BF …, U+FFFD is EF BF BD), which
    /// most names (ASCII, Latin, Greek, Cyrillic, CJK below U+E000) never hold: one pass over the bytes, and
    /// the scalars decoded only for a name that has one (two passes were ~2% of a `lsinfo DIR`).
    var uriName: String {
        guard name.utf8.contains(where: { $0 >= 0xEE }) else { return name }
        return name.utf8.contains(0xEE) || name.unicodeScalars.contains("\u{FFFD}") ? path.lastComponent.reversibleText : name
    }
}
