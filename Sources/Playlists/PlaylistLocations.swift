import MediaModel

/// How item paths are written into a playlist: absolute or relative, as a plain path or a URI.
struct PlaylistLocations: Sendable {
    /// The components of the directory paths are written relative to; nil for absolute paths.
    private let base: [ArraySlice<UInt8>]?

    init(style: PlaylistWriter.PathStyle) {
        switch style {
        case .absolute: base = nil
        case .relative(let dir): base = dir.normalizedComponents
        }
    }

    /// The path as the options want it written: absolute, or relative to the chosen directory.
    func pathAsWritten(_ path: MediaPath) -> MediaPath {
        guard let base else { return path }
        return path.relative(toComponents: base)
    }

    /// A location for a line-based format (M3U, PLS). A plain path when the format can carry it; an
    /// absolute `file://` URI when it cannot: a line break in the name, or a non-UTF-8 name in a UTF-8 format.
    /// A relative path that a reader would take for a comment or a URI gets a `./` prefix.
    func appendLineLocation(_ path: MediaPath, utf8Only: Bool, to out: inout ByteBuffer) {
        let hasLineBreak = path.bytes.contains(0x0A) || path.bytes.contains(0x0D)
        if hasLineBreak || (utf8Only && !path.isUTF8) {
            FileURI.append(absolute: path.normalized, to: &out)
            return
        }
        let written = pathAsWritten(path)
        if !written.isAbsolute, needsDotSlash(written.bytes) { out.append("./") }
        out.append(written.bytes)
    }

    /// A URI for XSPF/JSPF: `file:///…` for absolute paths, an escaped relative reference otherwise
    /// (`:` is escaped too, so the first segment never reads as a scheme).
    func appendURILocation(_ path: MediaPath, to out: inout ByteBuffer) {
        let written = pathAsWritten(path)
        if written.isAbsolute { FileURI.append(absolute: written, to: &out) } else { out.append(percentEscaped: written.bytes) }
    }

    private func needsDotSlash(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        return first == UInt8(ascii: "#") || first == 0x20 || first == 0x09 || FileURI.scheme(of: bytes) != nil
    }
}
