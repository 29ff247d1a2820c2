/// Splits one request line into a command name and its arguments, as MPD's `Tokenizer` does: the name
/// is lower-case letters, digits and `_`; an argument is a bare word or a double-quoted string in which
/// `\` escapes the next character.
enum RequestParser {
    enum Failure: Error, Equatable {
        /// MPD closes the connection on these (an empty line, a name with other characters).
        case malformedCommand
        /// MPD answers these with ACK [5@0] {} and keeps the connection.
        case ack(String)
    }

    /// Over the line's UTF-8 bytes, as mpd's tokenizer reads them: the `Character` walk this was (grapheme
    /// breaking and Unicode properties for every byte of every request) was the largest user-space cost of
    /// a polling client's command.
    static func parse(_ line: String) throws(Failure) -> (name: String, arguments: [String]) {
        var line = line
        // withUTF8 rethrows untyped errors: the typed one goes through a Result.
        let result = line.withUTF8 { bytes in Result { () throws(Failure) in try parse(bytes) } }
        return try result.get()
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> (name: String, arguments: [String]) {
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var i = 0
        let end = bytes.count
        func skipSpace() { while i < end, bytes[i] == space || bytes[i] == tab { i += 1 } }
        skipSpace()
        let nameStart = i
        while i < end, case let c = bytes[i],
              (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_") {
            i += 1
        }
        guard i > nameStart else { throw .malformedCommand }
        if i < end, bytes[i] != space && bytes[i] != tab { throw .malformedCommand }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<i]), as: UTF8.self)
        var arguments: [String] = []
        while true {
            skipSpace()
            guard i < end else { break }
            if bytes[i] == quote {
                i += 1
                var value: [UInt8] = []
                var closed = false
                while i < end {
                    let c = bytes[i]
                    i += 1
                    if c == backslash {
                        guard i < end else { break }
                        value.append(bytes[i])
                        i += 1
                    } else if c == quote {
                        closed = true
                        break
                    } else {
                        value.append(c)
                    }
                }
                guard closed else { throw .ack("Missing closing '\"'") }
                if i < end, bytes[i] != space && bytes[i] != tab { throw .ack("Space expected after closing '\"'") }
                arguments.append(String(decoding: value, as: UTF8.self))
            } else {
                let wordStart = i
                while i < end, bytes[i] != space && bytes[i] != tab {
                    let c = bytes[i]
                    if c == quote || c == UInt8(ascii: "'") || c == backslash { throw .ack("Invalid unquoted character") }
                    i += 1
                }
                arguments.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[wordStart..<i]), as: UTF8.self))
            }
        }
        return (name, arguments)
    }

    /// Quotes an argument for a command line (for tests and for filter expressions written back).
    static func quote(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
