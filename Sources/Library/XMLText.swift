/// Text for XML answers, escaped once for every front that writes XML by hand (the Subsonic API's `Node`,
/// DLNA's descriptions, SOAP and DIDL-Lite): the five predefined entities, tab, line feed and carriage
/// return as character references (so attribute values keep them), and every other control character
/// dropped. XML 1.0 allows no other control character, not even as a reference: a tag holding one loses the
/// character rather than making the whole answer unreadable to the client.
public enum XMLText {
    public static func escape(_ text: String, into out: inout String) {
        // Most values need no escaping: append them whole (scalar by scalar, a full Subsonic sync's 55 MB at
        // 100,000 songs spent most of its time here). 0xEF leads U+FFFE and U+FFFF in UTF-8.
        if !text.utf8.contains(where: needsWork) {
            out += text
            return
        }
        // The rest byte by byte on the UTF-8, into a string of the exact length counted first: a DIDL-Lite
        // page is all markup and is escaped whole into its SOAP answer, which scalar by scalar was a third of
        // a Browse's CPU.
        var text = text
        text.withUTF8 { bytes in
            var length = 0, i = 0
            while i < bytes.count {
                let (written, read) = replacement(bytes, at: i)
                length += written.count
                i += read
            }
            out += String(unsafeUninitializedCapacity: length) { buffer in
                var o = 0, i = 0
                while i < bytes.count {
                    let (written, read) = replacement(bytes, at: i)
                    for byte in written { buffer[o] = byte; o += 1 }
                    i += read
                }
                return o
            }
        }
    }

    /// `escape(_:into:)` onto bytes, in one pass: whole runs that need nothing copied at once, no string made
    /// (so no UTF-8 validation of the result). A SOAP answer escapes a whole DIDL-Lite page, all markup, this
    /// way: through a string, the escape and the validation were a third of a Browse's CPU.
    public static func escape(_ text: String, into out: inout [UInt8]) { escape(text, into: &out, twice: false) }

    /// `text` escaped, then escaped again, onto bytes in one pass: a value inside an XML document that is
    /// itself the text of another (DIDL-Lite inside a SOAP `Result`). Only `&` needs the second level: the
    /// first level's output holds no other character that does.
    public static func escapeTwice(_ text: String, into out: inout [UInt8]) { escape(text, into: &out, twice: true) }

    @inline(__always) private static func escape(_ text: String, into out: inout [UInt8], twice: Bool) {
        var text = text
        text.withUTF8 { bytes in
            out.reserveCapacity(out.count + bytes.count + bytes.count / 4)
            var i = 0, run = 0
            while i < bytes.count {
                guard needsWork(bytes[i]) else { i += 1; continue }
                if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i])) }
                let (written, read) = replacement(bytes, at: i)
                if twice {
                    for byte in written {
                        if byte == UInt8(ascii: "&") { out.append(contentsOf: entities.amp) } else { out.append(byte) }
                    }
                } else {
                    out.append(contentsOf: written)
                }
                i += read
                run = i
            }
            if run < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...])) }
        }
    }

    /// What the byte at `i` becomes (as bytes), and how many bytes it stands for: itself; an entity; nothing
    /// for a control character; nothing for U+FFFE and U+FFFF (EF BF BE, EF BF BF), 3 bytes.
    @inline(__always) private static func replacement(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UnsafeBufferPointer<UInt8>, Int) {
        let byte = bytes[i]
        guard needsWork(byte) else { return (UnsafeBufferPointer(rebasing: bytes[i..<i + 1]), 1) }
        switch byte {
        case UInt8(ascii: "&"): return (entities.amp, 1)
        case UInt8(ascii: "<"): return (entities.lt, 1)
        case UInt8(ascii: ">"): return (entities.gt, 1)
        case UInt8(ascii: "\""): return (entities.quot, 1)
        case UInt8(ascii: "'"): return (entities.apos, 1)
        case UInt8(ascii: "\n"): return (entities.lf, 1)
        case UInt8(ascii: "\r"): return (entities.cr, 1)
        case UInt8(ascii: "\t"): return (entities.tab, 1)
        case 0xEF:
            if i + 2 < bytes.count, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF { return (entities.none, 3) }
            return (UnsafeBufferPointer(rebasing: bytes[i..<i + 1]), 1)
        default: return (entities.none, 1)   // another control character: dropped
        }
    }

    /// The replacements' bytes, allocated once for the process (never freed).
    private struct Entities: @unchecked Sendable {
        let amp = Self.bytes("&amp;"), lt = Self.bytes("&lt;"), gt = Self.bytes("&gt;"), quot = Self.bytes("&quot;")
        let apos = Self.bytes("&apos;"), lf = Self.bytes("&#10;"), cr = Self.bytes("&#13;"), tab = Self.bytes("&#9;")
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

        static func bytes(_ text: String) -> UnsafeBufferPointer<UInt8> {
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
            _ = buffer.initialize(from: text.utf8)
            return UnsafeBufferPointer(buffer)
        }
    }

    private static let entities = Entities()

    @inline(__always) private static func needsWork(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == 0xEF
    }

    public static func escaped(_ text: String) -> String {
        var out = ""
        escape(text, into: &out)
        return out
    }
}
