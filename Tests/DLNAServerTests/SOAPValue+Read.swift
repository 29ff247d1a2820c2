@testable import DLNAServer

extension SOAPValue {
    /// The value as a control point reads it from the answer: text as it is, escaped bytes (a Browse's
    /// `Result`) with XML's entities and character references read back.
    var read: String {
        switch self {
        case .text(let text): return text
        case .escaped(let bytes):
            let escaped = String(decoding: bytes, as: UTF8.self)
            var out = ""
            var rest = escaped[...]
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
                let name = rest[rest.index(after: amp)..<semicolon]
                switch name {
                case "lt": out += "<"
                case "gt": out += ">"
                case "amp": out += "&"
                case "quot": out += "\""
                case "apos": out += "'"
                default:
                    let digits = name.dropFirst()
                    let value = digits.first == "x" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                    out.unicodeScalars.append(value.flatMap(Unicode.Scalar.init) ?? "\u{FFFD}")
                }
                rest = rest[rest.index(after: semicolon)...]
            }
            return out + rest
        }
    }
}
