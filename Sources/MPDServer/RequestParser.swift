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

    static func parse(_ line: String) throws(Failure) -> (name: String, arguments: [String]) {
        var chars = Substring(line)
        func skipSpace() { while let c = chars.first, c == " " || c == "\t" { chars.removeFirst() } }
        skipSpace()
        let name = chars.prefix { c in c.isASCII && (c.isLowercase || c.isNumber || c == "_") }
        guard !name.isEmpty else { throw .malformedCommand }
        chars.removeFirst(name.count)
        if let c = chars.first, c != " " && c != "\t" { throw .malformedCommand }
        var arguments: [String] = []
        while true {
            skipSpace()
            guard let first = chars.first else { break }
            if first == "\"" {
                chars.removeFirst()
                var value = ""
                var closed = false
                while let c = chars.popFirst() {
                    if c == "\\" {
                        guard let escaped = chars.popFirst() else { break }
                        value.append(escaped)
                    } else if c == "\"" {
                        closed = true
                        break
                    } else {
                        value.append(c)
                    }
                }
                guard closed else { throw .ack("Missing closing '\"'") }
                if let c = chars.first, c != " " && c != "\t" { throw .ack("Space expected after closing '\"'") }
                arguments.append(value)
            } else {
                let word = chars.prefix { $0 != " " && $0 != "\t" }
                if word.contains("\"") || word.contains("'") || word.contains("\\") {
                    throw .ack("Invalid unquoted character")
                }
                chars.removeFirst(word.count)
                arguments.append(String(word))
            }
        }
        return (String(name), arguments)
    }

    /// Quotes an argument for a command line (for tests and for filter expressions written back).
    static func quote(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
