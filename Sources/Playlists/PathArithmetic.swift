import MediaModel

/// Lexical path arithmetic on bytes (no file system access, symlinks are not followed): playlists name
/// files the way the index does, so `/music/a/../b.flac` must become `/music/b.flac` before it is looked up.
extension MediaPath {
    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")

    var isAbsolute: Bool { bytes.first == Self.slash }

    /// Path components without empty ones and `.`; `..` kept only where it cannot be cancelled.
    var normalizedComponents: [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        for c in bytes.split(separator: Self.slash, omittingEmptySubsequences: true) {
            if c.count == 1 && c.first == Self.dot { continue }
            if c.count == 2 && c.allSatisfy({ $0 == Self.dot }) {
                if let last = out.last, !(last.count == 2 && last.allSatisfy({ $0 == Self.dot })) {
                    out.removeLast()
                } else if !isAbsolute {
                    out.append(c)   // a leading `..` of a relative path is meaningful; above `/` it is not
                }
                continue
            }
            out.append(c)
        }
        return out
    }

    /// The same path with `.`, `..` and repeated slashes removed.
    public var normalized: MediaPath {
        var out: [UInt8] = isAbsolute ? [Self.slash] : []
        for (i, c) in normalizedComponents.enumerated() {
            if i > 0 { out.append(Self.slash) }
            out.append(contentsOf: c)
        }
        return MediaPath(bytes: out.isEmpty ? [Self.dot] : out)
    }

    /// This path if absolute, otherwise `base/self`; normalized either way.
    public func resolved(against base: MediaPath) -> MediaPath {
        isAbsolute ? normalized : MediaPath(bytes: base.bytes + [Self.slash] + bytes).normalized
    }

    /// This (absolute) path written relative to the (absolute) directory `dir`, with as many `../` as needed:
    /// `/m/a/x.mp3` relative to `/m/b/c` is `../../a/x.mp3`.
    public func relative(to dir: MediaPath) -> MediaPath {
        relative(toComponents: dir.normalizedComponents)
    }

    /// `relative(to:)` with the directory already split (a playlist export splits it once, not per item).
    func relative(toComponents base: [ArraySlice<UInt8>]) -> MediaPath {
        let target = normalizedComponents
        var common = 0
        while common < target.count, common < base.count, target[common].elementsEqual(base[common]) { common += 1 }
        var out: [UInt8] = []
        for _ in common..<base.count { out.append(contentsOf: [Self.dot, Self.dot, Self.slash]) }
        for (i, c) in target[common...].enumerated() {
            if i > 0 { out.append(Self.slash) }
            out.append(contentsOf: c)
        }
        if out.last == Self.slash { out.removeLast() }
        return MediaPath(bytes: out.isEmpty ? [Self.dot] : out)
    }
}
