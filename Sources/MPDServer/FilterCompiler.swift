import Foundation
import MediaModel

/// Both of MPD's filter syntaxes compiled to mlib's one predicate AST (`MediaModel.MediaPredicate`), which the
/// view and the store run, with the terms on raw tags beside it (`MPDFilter`): the old `TAG VALUE` pairs
/// (ANDed) and the `(TAG == 'VALUE')` expressions of MPD 0.21+.
///
/// `find` compares exactly; `search` (and `searchadd`, `playlistsearch`) ignores case, and its `==` on the
/// old syntax means "contains", as MPD's does.
struct FilterCompiler {
    enum Mode { case exact, search }

    let mode: Mode
    let uris: LibraryURIs

    /// The filter in `arguments` (everything up to `sort`, `window` or `group`).
    func compile(_ arguments: [String]) throws -> MPDFilter {
        guard let first = arguments.first else { throw MPDError.badArgument("Incorrect number of filter arguments") }
        if first.hasPrefix("(") {
            var terms: [MPDFilter] = []
            for expression in arguments {
                var parser = ExpressionParser(text: expression, compiler: self)
                terms.append(try parser.parseExpression())
                guard parser.atEnd else { throw MPDError.badArgument("Unparsed garbage after expression") }
            }
            return .combined(terms)
        }
        guard arguments.count % 2 == 0 else { throw MPDError.badArgument("Incorrect number of filter arguments") }
        var terms: [MPDFilter] = []
        for i in stride(from: 0, to: arguments.count, by: 2) {
            let tag = arguments[i].lowercased(), value = arguments[i + 1]
            switch tag {
            case "file", "filename": terms.append(.predicate(try file(value)))
            case "base": terms.append(.predicate(try base(value)))
            case "modified-since": terms.append(.predicate(try modifiedSince(value)))
            default: terms.append(try compare(tag: tag, mode == .search ? .contains : .equal, value))
            }
        }
        return .combined(terms)
    }

    enum Operation: Equatable { case equal, notEqual, contains, notContains, startsWith, regex, notRegex }

    private var options: Comparison.Options { mode == .search ? [.caseInsensitive] : [] }

    /// `TAG op VALUE`. A missing tag compares as the empty string, as MPD's: `find artist ""` finds the
    /// songs without one.
    func compare(tag: String, _ op: Operation, _ value: String) throws -> MPDFilter {
        if tag == "audioformat" { return .predicate(try audioFormat(op, value)) }
        let isNegated = op == .notEqual || op == .notContains || op == .notRegex
        if tag == "any" {
            // mpd's `any` is any tag of the song: the dates and numbers too (`search any 1996` found
            // nothing in mlib where mpd finds the songs of 1996), and the raw ones (Performer, Label…).
            let searchable: [MediaProperty] = [.artist, .albumArtist, .albumTitle, .title, .genre, .composer, .grouping,
                                               .releaseDate, .albumTrackNumber, .discNumber]
            let properties = MPDFilter.predicate(.or(try searchable.map { try compare(property: $0, positive(op), value) }))
            let raw = try MPDTag.all.filter { $0.rawKey != nil }.map { try rawTag($0, positive(op), value, fallbacks: false) }
            let any = MPDFilter.or([properties] + raw)
            return isNegated ? .not(any) : any
        }
        guard let mpdTag = MPDTag.named(tag) else { throw MPDError.badArgument("Unknown filter type") }
        guard let property = mpdTag.property else {
            let term = try rawTag(mpdTag, positive(op), value)
            return isNegated ? .not(term) : term
        }
        return .predicate(try compare(property: property, tag: mpdTag, op, value))
    }

    /// A term on a tag mlib keeps only raw (`op` positive), decided on the view's values (`MPDFilter`).
    private func rawTag(_ tag: MPDTag, _ op: Operation, _ value: String, fallbacks: Bool = true) throws -> MPDFilter {
        let operation: RawTagTerm.Operation = switch op {
        case .contains: .contains
        case .startsWith: .startsWith
        case .regex: .regex
        default: .equal
        }
        return .rawTag(try RawTagTerm(tag: tag, operation, value, ignoresCase: mode == .search, usesFallbacks: fallbacks))
    }

    private func compare(property: MediaProperty, tag mpdTag: MPDTag, _ op: Operation, _ value: String) throws -> MediaPredicate {
        // MPD's fallback: a song without an album artist matches on its artist.
        if property == .albumArtist, let artist = mpdTag.fallbacks.first?.property,
           op == .equal || op == .contains || op == .startsWith || op == .regex {
            return .or([try compare(property: property, op, value),
                        .and([.comparison(Comparison(property, .equal, .null)), try compare(property: artist, op, value)])])
        }
        if property == .albumArtist, op == .notEqual || op == .notContains || op == .notRegex {
            return .not(try compare(property: property, tag: mpdTag, positive(op), value))
        }
        return try compare(property: property, op, value)
    }

    private func positive(_ op: Operation) -> Operation {
        switch op {
        case .notEqual: .equal
        case .notContains: .contains
        case .notRegex: .regex
        default: op
        }
    }

    private func compare(property: MediaProperty, _ op: Operation, _ value: String) throws -> MediaPredicate {
        switch op {
        case .notEqual: return .not(try compare(property: property, .equal, value))
        case .notContains: return .not(try compare(property: property, .contains, value))
        case .notRegex: return .not(try compare(property: property, .regex, value))
        default: break
        }
        let isText = property.spec.type == .text || property.spec.type == .date
        if !isText {
            // Track and disc are numbers in mlib, shown as plain decimals ("3"); mpd compares the tag's
            // text, so "03" does not find track 3 (`find track 01`: nothing, as with mpd).
            if value.isEmpty {
                guard op == .equal else { return .all }
                return .or([.comparison(Comparison(property, .equal, .null)),
                            .comparison(Comparison(property, .equal, .value(.integer(0))))])
            }
            guard op == .equal else {
                // `search track 1` (contains), starts_with and =~ on the number's text: the numbers up to
                // 9,999 whose decimal text matches, as one IN (mpd found 561 songs where mlib found none).
                let numbers = try matchingNumbers(op, value).map { MediaValue.integer(Int64($0)) }
                return numbers.isEmpty ? .none : .comparison(Comparison(property, .in, .list(numbers)))
            }
            let number = value.split(separator: "/").first.map(String.init) ?? value
            guard let n = Int64(number), String(n) == number else { return .none }
            return .comparison(Comparison(property, .equal, .value(.integer(n))))
        }
        if value.isEmpty {
            switch op {
            // An empty exact value finds the songs without the tag, as mpd 0.23's (`find artist ""`).
            case .equal: return .or([.comparison(Comparison(property, .equal, .null)),
                                     .comparison(Comparison(property, .equal, .value(.text(""))))])
            case .contains, .startsWith, .regex: return .all
            default: break
            }
        }
        let operatorAndValue: (Comparison.Operator, String) = switch op {
        case .equal: (.equal, value)
        case .contains: (.contains, value)
        case .startsWith: (.beginsWith, value)
        default: (.matches, ".*(?:" + value + ").*")
        }
        return .comparison(Comparison(property, operatorAndValue.0, .value(.text(operatorAndValue.1)), options: options))
    }

    /// The numbers 1...9,999 whose decimal text passes a text operator (`search` ignores case: digits have
    /// none). A value with anything but digits matches no number's text without trying the 9,999: `search
    /// any "the"` tried them with Foundation's `contains`, twice (track and disc), and that was 40 % of the
    /// server's CPU under the 10-client library load at 2,004 songs.
    private func matchingNumbers(_ op: Operation, _ value: String) throws -> [Int] {
        if op == .regex {
            guard let regex = try? NSRegularExpression(pattern: value) else { throw MPDError.badArgument("Bad regular expression") }
            return (1...9_999).filter { n in
                let text = String(n)
                return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            }
        }
        let wanted = Array(value.utf8)
        guard !wanted.isEmpty, wanted.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return [] }
        return (1...9_999).filter { n in
            let text = Array(String(n).utf8)
            switch op {
            case .contains: return text.count >= wanted.count && (0...(text.count - wanted.count)).contains { start in
                text[start..<(start + wanted.count)].elementsEqual(wanted)
            }
            case .startsWith: return text.starts(with: wanted)
            default: return text == wanted
            }
        }
    }

    /// `(AudioFormat == 'RATE:BITS:CHANNELS')` and `(AudioFormat =~ 'RATE:*:*')` (a mask, `*` any), over
    /// the sample rate, bit depth and channels `Format` is printed from (bits `f`: no integer depth).
    func audioFormat(_ op: Operation, _ value: String) throws -> MediaPredicate {
        guard op == .equal || op == .regex || op == .notEqual || op == .notRegex else {
            throw MPDError.badArgument("Unknown filter operator for AudioFormat")
        }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { throw MPDError.badArgument("Invalid audio format: \(value)") }
        let isMask = op == .regex || op == .notRegex
        var terms: [MediaPredicate] = []
        for (part, property) in zip(parts, [MediaProperty.sampleRate, .bitDepth, .channels]) {
            if isMask && part == "*" { continue }
            if property == .bitDepth && part == "f" {
                terms.append(.or([.comparison(Comparison(.bitDepth, .equal, .null)),
                                  .comparison(Comparison(.bitDepth, .equal, .value(.integer(0))))]))
                continue
            }
            guard let n = Int64(part), n > 0 else { throw MPDError.badArgument("Invalid audio format: \(value)") }
            let equal = MediaPredicate.comparison(Comparison(property, .equal, .value(.integer(n))))
            // `Format` says 2 channels when the index has none.
            terms.append(property == .channels && n == 2 ? .or([equal, .comparison(Comparison(.channels, .equal, .null))]) : equal)
        }
        let all: MediaPredicate = terms.isEmpty ? .all : .and(terms)
        return op == .notEqual || op == .notRegex ? .not(all) : all
    }

    /// `(file =~ 'REGEX')`: the regular expression searched in each song's URI (the path below its
    /// root, with the root's name in front when there are several).
    func fileRegex(_ pattern: String) throws -> MediaPredicate {
        guard (try? NSRegularExpression(pattern: pattern)) != nil else { throw MPDError.badArgument("Bad regular expression") }
        // MATCHES is a whole-string match of the absolute path: the root's path, then the URI.
        let anchored = pattern.hasPrefix("^")
        let body = anchored ? String(pattern.dropFirst()) : pattern
        let terms = uris.mounts.map { mount -> MediaPredicate in
            let root = mount.root.string.hasSuffix("/") ? mount.root.string : mount.root.string + "/"
            let prefix = NSRegularExpression.escapedPattern(for: root + (mount.name.isEmpty ? "" : mount.name + "/"))
            let regex = anchored ? prefix + "(?:" + body + ").*" : prefix + ".*(?:" + body + ").*"
            return .comparison(Comparison(.path, .matches, .value(.text(regex)), options: options))
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    func file(_ uri: String) throws -> MediaPredicate {
        guard let path = uris.path(of: uri) else { return .none }
        return .comparison(Comparison(.path, .equal, .value(.text(path.string))))
    }

    func base(_ uri: String) throws -> MediaPredicate {
        guard LibraryURIs.isSafe(LibraryURIs.normalized(uri)) else { throw MPDError.badURI }
        guard let path = uris.path(of: uri) else { throw MPDError.noSuchDirectory }
        if LibraryURIs.normalized(uri).isEmpty && uris.topDirectories == nil { return .all }
        let prefix = path.string.hasSuffix("/") ? path.string : path.string + "/"
        return .comparison(Comparison(.path, .beginsWith, .value(.text(prefix))))
    }

    func modifiedSince(_ text: String) throws -> MediaPredicate {
        guard let date = MPDFormat.date(fromTimestamp: text) else { throw MPDError.badArgument("Malformed time stamp") }
        return .comparison(Comparison(.modificationDate, .greaterOrEqual, .value(.real(date.timeIntervalSince1970))))
    }
}

/// MPD 0.21's filter expressions: `(TAG OP VALUE)`, `(!EXPR)`, `(EXPR AND EXPR …)`, `(base VALUE)`,
/// `(modified-since VALUE)`, `(file == VALUE)`; values in single or double quotes with `\` escapes.
private struct ExpressionParser {
    let text: [Character]
    let compiler: FilterCompiler
    var i = 0

    init(text: String, compiler: FilterCompiler) {
        self.text = Array(text)
        self.compiler = compiler
    }

    var atEnd: Bool {
        var j = i
        while j < text.count, text[j] == " " { j += 1 }
        return j == text.count
    }

    mutating func skipSpace() { while i < text.count, text[i] == " " { i += 1 } }

    mutating func expect(_ c: Character) throws {
        skipSpace()
        guard i < text.count, text[i] == c else { throw MPDError.badArgument("'\(c)' expected") }
        i += 1
    }

    mutating func parseExpression() throws -> MPDFilter {
        try expect("(")
        skipSpace()
        guard i < text.count else { throw MPDError.badArgument("Expression expected") }
        if text[i] == "!" {
            i += 1
            let inner = try parseExpression()
            try expect(")")
            return .not(inner)
        }
        if text[i] == "(" {
            var terms = [try parseExpression()]
            while true {
                skipSpace()
                if i < text.count, text[i] == ")" { i += 1; break }
                let word = readWord()
                guard word == "AND" else { throw MPDError.badArgument("'AND' expected") }
                terms.append(try parseExpression())
            }
            return .combined(terms)
        }
        let tag = readWord()
        guard !tag.isEmpty else { throw MPDError.badArgument("Tag name expected") }
        let lower = tag.lowercased()
        let result: MPDFilter
        if lower == "base" {
            result = .predicate(try compiler.base(try readValue()))
        } else if lower == "modified-since" {
            result = .predicate(try compiler.modifiedSince(try readValue()))
        } else {
            skipSpace()
            let opText = readOperator()
            let op: FilterCompiler.Operation
            switch opText {
            case "==", "eq_cs", "eq_ci": op = .equal
            case "!=": op = .notEqual
            case "contains": op = .contains
            case "!contains": op = .notContains
            case "starts_with": op = .startsWith
            case "=~": op = .regex
            case "!~": op = .notRegex
            default: throw MPDError.badArgument("Unknown filter operator: \(opText)")
            }
            let value = try readValue()
            if lower == "file" || lower == "filename" {
                switch op {
                case .equal: result = .predicate(try compiler.file(value))
                case .notEqual: result = .predicate(.not(try compiler.file(value)))
                case .regex: result = .predicate(try compiler.fileRegex(value))
                case .notRegex: result = .predicate(.not(try compiler.fileRegex(value)))
                default: throw MPDError.badArgument("'==' expected")
                }
            } else {
                result = try compiler.compare(tag: lower, op, value)
            }
        }
        try expect(")")
        return result
    }

    mutating func readWord() -> String {
        skipSpace()
        var word = ""
        while i < text.count, text[i].isLetter || text[i].isNumber || text[i] == "_" || text[i] == "-" {
            word.append(text[i])
            i += 1
        }
        return word
    }

    mutating func readOperator() -> String {
        var op = ""
        if i < text.count, "=!~".contains(text[i]) {
            while i < text.count, "=!~".contains(text[i]) { op.append(text[i]); i += 1 }
            if op == "!" { op += readWord() }
            return op
        }
        return readWord()
    }

    mutating func readValue() throws -> String {
        skipSpace()
        guard i < text.count, text[i] == "\"" || text[i] == "'" else { throw MPDError.badArgument("Quoted string expected") }
        let quote = text[i]
        i += 1
        var value = ""
        while i < text.count, text[i] != quote {
            if text[i] == "\\", i + 1 < text.count { i += 1 }
            value.append(text[i])
            i += 1
        }
        guard i < text.count else { throw MPDError.badArgument("Closing quote not found") }
        i += 1
        return value
    }
}
