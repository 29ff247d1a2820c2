import MediaModel

/// `file:` URIs and URI references for playlist locations. Escaping works on path bytes, so a name that is
/// not UTF-8 becomes `%E9`-style escapes and comes back as the same bytes.
enum FileURI {
    /// `file:///music/caf%C3%A9%20%231.flac` for an absolute path.
    static func append(absolute path: MediaPath, to out: inout ByteBuffer) {
        out.append("file://")
        out.append(percentEscaped: path.bytes)
    }

    /// The scheme of `text` (`file`, `http`…) when it starts with one, lower-cased. A single letter followed
    /// by `:` is not taken as a scheme, so a Windows drive (`C:\`) or a relative name is left alone.
    static func scheme(of text: some Collection<UInt8>) -> String? {
        var scheme: [UInt8] = []
        for b in text {
            if b == UInt8(ascii: ":") { return scheme.count > 1 ? String(decoding: scheme, as: UTF8.self).lowercased() : nil }
            let isLetter = (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
            let isOther = (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "+")
                || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
            guard isLetter || (!scheme.isEmpty && isOther) else { return nil }
            scheme.append(b)
        }
        return nil
    }

    /// `%XX` sequences decoded to bytes; anything else (including a stray `%`) kept as is.
    static func percentDecoded(_ text: some Collection<UInt8>) -> [UInt8] {
        let a = Array(text)
        var out: [UInt8] = []
        out.reserveCapacity(a.count)
        var i = 0
        while i < a.count {
            if a[i] == UInt8(ascii: "%"), i + 2 < a.count, let hi = hexValue(a[i + 1]), let lo = hexValue(a[i + 2]) {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(a[i])
                i += 1
            }
        }
        return out
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The path of a `file:` URI: `file:///p`, `file://localhost/p` and `file:/p` are accepted; another
    /// host gives nil (that file is not on this machine).
    static func path(ofFileURI text: some Collection<UInt8>) -> MediaPath? {
        var rest = Array(text.dropFirst(5))   // "file:"
        if rest.starts(with: Array("//".utf8)) {
            rest.removeFirst(2)
            let hostEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let host = String(decoding: rest[..<hostEnd], as: UTF8.self).lowercased()
            guard host.isEmpty || host == "localhost" else { return nil }
            rest = Array(rest[hostEnd...])
        }
        // A query or fragment is not part of the file name (a literal `#` or `?` in a name is escaped).
        if let cut = rest.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { rest = Array(rest[..<cut]) }
        guard rest.first == UInt8(ascii: "/") else { return nil }
        return MediaPath(bytes: percentDecoded(rest)).normalized
    }
}
