import Glibc
import MediaModel

/// A second name for a file, in `$TMPDIR`, ending in an extension of the caller's: a symbolic link to it.
enum SymbolicName {
    /// A new link `$TMPDIR/mlib-check-RANDOM.ext` to `target` (made absolute), or nil when none could be made.
    /// The caller removes it.
    static func make(to target: MediaPath, extension ext: String) -> MediaPath? {
        var absolute = target.bytes
        if absolute.first != UInt8(ascii: "/") {
            guard let cwd = getcwd(nil, 0) else { return nil }
            defer { free(cwd) }
            absolute = Array(String(cString: cwd).utf8) + [UInt8(ascii: "/")] + absolute
        }
        let to = MediaPath(bytes: absolute)
        for _ in 0..<8 {
            let name = TagWriter.temporaryDirectory + "/mlib-check-" + String(UInt64.random(in: 0...UInt64.max), radix: 36) + "." + ext
            let link = MediaPath(name)
            let made = to.withCString { target in link.withCString { symlink(target, $0) } }
            if made == 0 { return link }
            guard errno == EEXIST else { return nil }
        }
        return nil
    }
}
