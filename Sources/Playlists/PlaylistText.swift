import MediaModel

/// Text from a playlist (or its file name) made safe to print: a playlist is someone else's bytes, and an
/// ESC sequence or a 200 MB line echoed to a terminal is an attack or a flood, not a message.
public enum PlaylistText {
    /// At most this many characters of one value are shown; the rest is cut and counted.
    public static let shownLimit = 200

    /// `text` with C0 and C1 control characters and DEL written as escapes (`\x1B`, `\u{9B}`, `\t`), cut
    /// after `shownLimit` characters with "… (N characters)".
    public static func printable(_ text: String) -> String {
        var out = ""
        var shown = 0
        var total = 0
        for scalar in text.unicodeScalars {
            total += 1
            guard shown < shownLimit else { continue }
            shown += 1
            switch scalar.value {
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0..<0x20, 0x7F: out += "\\x" + hex(scalar.value)
            case 0x80..<0xA0: out += "\\u{" + hex(scalar.value) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        if total > shown { out += "… (\(total) characters)" }
        return out
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }
}

extension PlaylistEntry.Location {
    /// The location as `printable` text, for messages.
    public var printable: String { PlaylistText.printable(description) }
}
