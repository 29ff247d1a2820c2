/// Tokens of the format-string language (see `PredicateParser`). Positions are `Character` offsets.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)     // keypaths, keywords, bare words (case kept)
        case string(String)         // "…" or '…', escapes resolved
        case number(MediaValue)     // 42, -1.5, 1e3
        case duration(Double)       // 5:00, 1:02:03 (seconds)
        case symbol(String)         // == = != <> < <= =< > >= => && || ! ( ) { } [ ] ,
        case argument               // %@ (a value passed beside the format)
        case end
    }
    var kind: Kind
    var position: Int
}

struct PredicateLexer {
    let chars: [Character]
    let text: String

    init(_ text: String) {
        self.text = text
        self.chars = Array(text)
    }

    func tokens() throws -> [PredicateToken] {
        var out: [PredicateToken] = []
        var i = 0
        func error(_ message: String, _ at: Int) -> QueryError { QueryError(message, query: text, position: at) }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            let start = i
            if c == "\"" || c == "'" {
                var s = ""
                i += 1
                var closed = false
                while i < chars.count {
                    let d = chars[i]
                    if d == c { closed = true; i += 1; break }
                    if d == "\\", i + 1 < chars.count {
                        let e = chars[i + 1]
                        switch e {
                        case "\"", "'", "\\": s.append(e)
                        case "n": s.append("\n")
                        case "t": s.append("\t")
                        default: s.append("\\"); s.append(e)   // kept for LIKE (\*) and MATCHES (\d)
                        }
                        i += 2
                        continue
                    }
                    s.append(d)
                    i += 1
                }
                guard closed else { throw error("unterminated string (missing closing \(c))", start) }
                out.append(PredicateToken(kind: .string(s), position: start))
                continue
            }
            if c.isASCII, c.isNumber || ((c == "-" || c == "+" || c == ".") && i + 1 < chars.count && chars[i + 1].isASCII
                                          && (chars[i + 1].isNumber || chars[i + 1] == ".")) {
                var j = i + 1
                while j < chars.count, chars[j].isASCII, chars[j].isNumber || chars[j] == "." || chars[j] == ":"
                        || ((chars[j] == "e" || chars[j] == "E") && !chars[i...j].contains(":"))
                        || ((chars[j] == "-" || chars[j] == "+") && (chars[j - 1] == "e" || chars[j - 1] == "E")) {
                    j += 1
                }
                let word = String(chars[i..<j])
                if j < chars.count, chars[j].isLetter || chars[j] == "_" {
                    throw error("malformed number \"\(word)\(chars[j])\"", start)
                }
                if word.contains(":") {
                    guard let d = QueryLiterals.duration(word) else { throw error("malformed duration \"\(word)\" (use m:ss or h:mm:ss)", start) }
                    out.append(PredicateToken(kind: .duration(d), position: start))
                } else if let n = Int64(word) {
                    out.append(PredicateToken(kind: .number(.integer(n)), position: start))
                } else if let d = Double(word), d.isFinite {
                    out.append(PredicateToken(kind: .number(.real(d)), position: start))
                } else {
                    throw error("malformed number \"\(word)\"", start)
                }
                i = j
                continue
            }
            if c.isLetter || c == "_" || c == "$" {
                var j = i + 1
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" || chars[j] == "." { j += 1 }
                out.append(PredicateToken(kind: .identifier(String(chars[i..<j])), position: start))
                i = j
                continue
            }
            if c == "%", i + 1 < chars.count, chars[i + 1] == "@" {
                out.append(PredicateToken(kind: .argument, position: start))
                i += 2
                continue
            }
            let two = i + 1 < chars.count ? String(chars[i...(i + 1)]) : ""
            if ["==", "=~", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"].contains(two) {
                out.append(PredicateToken(kind: .symbol(two), position: start))
                i += 2
                continue
            }
            if "=<>!(){}[],".contains(c) {
                out.append(PredicateToken(kind: .symbol(String(c)), position: start))
                i += 1
                continue
            }
            throw error("unexpected character '\(c)'", start)
        }
        out.append(PredicateToken(kind: .end, position: chars.count))
        return out
    }
}
