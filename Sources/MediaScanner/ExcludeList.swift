#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// What a scan leaves out: patterns from `.mlibignore` files (and MPD's `.mpdignore`, so an MPD user's tree
/// works as it is) in any directory, inherited by its subdirectories, plus patterns given for a whole scan
/// (`mlib scan --exclude`). gitignore-style globs: one per line; `#` starts a comment; a pattern without a
/// slash matches a name at any depth below its file; one with a slash matches the path relative to its
/// file's directory (a leading `/` anchors it there); a trailing `/` matches directories only; `!` brings
/// back what an earlier pattern left out; `*`, `?`, `[...]` as in fnmatch(3), and `**` spans directories.
/// Excluded files already indexed leave the index like deleted ones, with the same identity rules.
public struct ExcludeList: Sendable {
    public struct Rule: Sendable, Hashable {
        public var pattern: String
        /// Where it came from, for `--dry-run`: "`.mlibignore`:3 in /music" or "--exclude".
        public var origin: String
        var base: MediaPath
        var negated: Bool
        var directoryOnly: Bool
        var anchored: Bool
        var glob: String
    }

    public private(set) var rules: [Rule] = []
    public init() {}

    /// The names of the files whose lines are read in each directory.
    public static let fileNames = [".mlibignore", ".mpdignore"]

    /// Adds the patterns of one file (or option) whose patterns apply below `base`.
    public mutating func add(lines: some Sequence<Substring>, base: MediaPath, origin: (Int) -> String) {
        for (number, raw) in lines.enumerated() {
            var line = raw.trimmingCharacters(in: " \t\r")
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            var rule = Rule(pattern: line, origin: origin(number + 1), base: base, negated: false, directoryOnly: false,
                            anchored: false, glob: "")
            if line.hasPrefix("!") { rule.negated = true; line.removeFirst() }
            if line.hasSuffix("/") { rule.directoryOnly = true; line.removeLast() }
            if line.hasPrefix("/") { rule.anchored = true; line.removeFirst() }
            if line.contains("/") { rule.anchored = true }
            guard !line.isEmpty else { continue }
            rule.glob = line
            rules.append(rule)
        }
    }

    /// The rule that decides `path` (the last that matches, as in gitignore), if it is left out.
    public func exclusion(of path: MediaPath, isDirectory: Bool) -> Rule? {
        var decided: Rule?
        for rule in rules where !(rule.directoryOnly && !isDirectory) && rule.matches(path) {
            decided = rule.negated ? nil : rule
        }
        return decided
    }

    public var isEmpty: Bool { rules.isEmpty }
}

extension ExcludeList.Rule {
    func matches(_ path: MediaPath) -> Bool {
        guard path.hasPrefix(directory: base) else { return false }
        let relative = MediaPath(bytes: Array(path.bytes.dropFirst(base.bytes.count + (base.bytes.last == UInt8(ascii: "/") ? 0 : 1))))
        if anchored { return Self.match(glob, relative.bytes) }
        return Self.match(glob, path.lastComponent.bytes)
    }

    /// fnmatch(3) on byte strings, with `**` matching any number of directories (gitignore).
    static func match(_ glob: String, _ subject: [UInt8]) -> Bool {
        if glob.contains("**") {
            // `a/**/b` is `a/b`, `a/*/b`, `a/*/*/b`…: try each number of directories the subject allows.
            let depth = subject.filter { $0 == UInt8(ascii: "/") }.count
            for n in 0...max(0, depth) {
                let expanded = glob.replacingOccurrences(of: "**/", with: String(repeating: "*/", count: n))
                    .replacingOccurrences(of: "/**", with: n == 0 ? "" : "/" + Array(repeating: "*", count: n).joined(separator: "/"))
                    .replacingOccurrences(of: "**", with: "*")
                if fnmatchBytes(expanded, subject) { return true }
            }
            return false
        }
        return fnmatchBytes(glob, subject)
    }

    private static func fnmatchBytes(_ glob: String, _ subject: [UInt8]) -> Bool {
        (subject + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { fnmatch(glob, $0.baseAddress!, FNM_PATHNAME | FNM_PERIOD) == 0 }
        }
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self[...]
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
