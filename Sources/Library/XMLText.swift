/// Text for XML answers, escaped once for every front that writes XML by hand (the Subsonic API's `Node`,
/// DLNA's descriptions, SOAP and DIDL-Lite): the five predefined entities, tab, line feed and carriage
/// return as character references (so attribute values keep them), and every other control character
/// dropped. XML 1.0 allows no other control character, not even as a reference: a tag holding one loses the
/// character rather than making the whole answer unreadable to the client.
public enum XMLText {
    public static func escape(_ text: String, into out: inout String) {
        // Most values need no escaping: append them whole (scalar by scalar, a full Subsonic sync's 55 MB at
        // 100,000 songs spent most of its time here). 0xEF leads U+FFFE and U+FFFF in UTF-8.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
                                        || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == 0xEF }) {
            out += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): continue
            default: out.unicodeScalars.append(scalar)
            }
        }
    }

    public static func escaped(_ text: String) -> String {
        var out = ""
        escape(text, into: &out)
        return out
    }
}
