import MediaModel

/// UPnP search criteria compiled onto mlib's predicate AST (one query language underneath: the store's
/// SQL compiler answers it as it answers `mlib ls`). Properties map to `MediaProperty`s; `upnp:class`
/// becomes a media-type test for items (`derivedfrom "object.item.audioItem"`: any audio) and decides
/// whether containers (albums) are searched too; `@refID exists false` (Windows Media Player's) is true
/// of every item here (no item is a reference).
enum SearchCompiler {
    static let capabilities = "dc:title,dc:creator,upnp:artist,upnp:album,upnp:genre,upnp:class,dc:date,upnp:originalTrackNumber,@refID"

    struct Unsupported: Error, CustomStringConvertible { var description: String }

    struct Compiled: Sendable {
        var predicate: Predicate
        var wantsItems: Bool { predicate != .none }
        /// Whether some album could match (the expression asks for a container class).
        var wantsContainers: Bool
        var expression: SearchGrammar.Expression

        /// Whether an album container of this class and title matches (classes and dc:title only).
        func acceptsContainer(_ upnpClass: String, title: String) -> Bool {
            func test(_ e: SearchGrammar.Expression) -> Bool {
                switch e {
                case .all: return true
                case .and(let a, let b): return test(a) && test(b)
                case .or(let a, let b): return test(a) || test(b)
                case .exists(let property, let present): return (property == "@refID") != present
                case .relation("upnp:class", let op, let value):
                    switch op {
                    case .derivedFrom: return upnpClass.hasPrefix(value)
                    case .equal: return upnpClass == value
                    case .notEqual: return upnpClass != value
                    default: return false
                    }
                case .relation("dc:title", let op, let value):
                    let t = TextFolding.fold(title, .cd), v = TextFolding.fold(value, .cd)
                    switch op {
                    case .equal: return t == v
                    case .notEqual: return t != v
                    case .contains: return t.contains(v)
                    case .doesNotContain: return !t.contains(v)
                    default: return false
                    }
                default: return false
                }
            }
            return test(expression)
        }
    }

    static func compile(_ expression: SearchGrammar.Expression) throws -> Compiled {
        Compiled(predicate: try item(expression), wantsContainers: mentionsContainers(expression), expression: expression)
    }

    private static func mentionsContainers(_ e: SearchGrammar.Expression) -> Bool {
        switch e {
        case .and(let a, let b), .or(let a, let b): return mentionsContainers(a) || mentionsContainers(b)
        case .relation("upnp:class", .derivedFrom, let v), .relation("upnp:class", .equal, let v):
            return v.hasPrefix("object.container") || "object.container".hasPrefix(v)
        default: return false
        }
    }

    private static func and(_ a: Predicate, _ b: Predicate) -> Predicate {
        switch (a, b) {
        case (.none, _), (_, .none): return .none
        case (.all, let x), (let x, .all): return x
        default: return .and([a, b])
        }
    }

    private static func or(_ a: Predicate, _ b: Predicate) -> Predicate {
        switch (a, b) {
        case (.all, _), (_, .all): return .all
        case (.none, let x), (let x, .none): return x
        default: return .or([a, b])
        }
    }

    static let textProperties: [String: MediaProperty] = [
        "dc:title": .title, "dc:creator": .artist, "upnp:artist": .artist, "upnp:album": .albumTitle, "upnp:genre": .genre,
    ]

    private static func item(_ e: SearchGrammar.Expression) throws -> Predicate {
        switch e {
        case .all: return .all
        case .and(let a, let b): return and(try item(a), try item(b))
        case .or(let a, let b): return or(try item(a), try item(b))
        case .exists(let property, let present):
            if property == "@refID" { return present ? .none : .all }
            guard let p = textProperties[property] ?? numericProperty(property) else { throw Unsupported(description: "unknown property \(property)") }
            let has = Predicate.comparison(Comparison(p, .notEqual, .null))
            return present ? has : .not(has)
        case .relation("upnp:class", let op, let value):
            return try classPredicate(op, value)
        case .relation(let property, let op, let value):
            if let p = textProperties[property] { return try text(p, op, value) }
            if let p = numericProperty(property) {
                // dc:date compares years (most files carry only one): "1999-05-01" is 1999.
                let digits = property == "dc:date" ? String(value.prefix(4)) : value
                guard let n = Int64(digits) else { throw Unsupported(description: "\(property) needs a number (\(value))") }
                return try numeric(p, op, n)
            }
            throw Unsupported(description: "unknown property \(property)")
        }
    }

    private static func numericProperty(_ property: String) -> MediaProperty? {
        ["dc:date": .year, "upnp:originalTrackNumber": .albumTrackNumber][property]
    }

    private static func text(_ p: MediaProperty, _ op: SearchGrammar.Operator, _ value: String) throws -> Predicate {
        let v = Comparison.Operand.value(.text(value))
        switch op {
        case .equal: return .comparison(Comparison(p, .equal, v, options: .cd))
        case .notEqual: return .comparison(Comparison(p, .notEqual, v, options: .cd))
        case .contains: return .comparison(Comparison(p, .contains, v, options: .cd))
        case .doesNotContain: return .not(.comparison(Comparison(p, .contains, v, options: .cd)))
        case .less: return .comparison(Comparison(p, .less, v, options: .cd))
        case .lessOrEqual: return .comparison(Comparison(p, .lessOrEqual, v, options: .cd))
        case .greater: return .comparison(Comparison(p, .greater, v, options: .cd))
        case .greaterOrEqual: return .comparison(Comparison(p, .greaterOrEqual, v, options: .cd))
        case .derivedFrom: throw Unsupported(description: "derivedfrom applies to upnp:class only")
        }
    }

    private static func numeric(_ p: MediaProperty, _ op: SearchGrammar.Operator, _ n: Int64) throws -> Predicate {
        let ops: [SearchGrammar.Operator: Comparison.Operator] = [.equal: .equal, .notEqual: .notEqual, .less: .less,
                                                                   .lessOrEqual: .lessOrEqual, .greater: .greater, .greaterOrEqual: .greaterOrEqual]
        guard let mapped = ops[op] else { throw Unsupported(description: "\(op.rawValue) does not compare numbers") }
        return .comparison(Comparison(p, mapped, .value(.integer(n))))
    }

    /// Items are `object.item.audioItem.musicTrack` (audio) or `object.item.videoItem` (video).
    private static func classPredicate(_ op: SearchGrammar.Operator, _ value: String) throws -> Predicate {
        let audio = Predicate.comparison(Comparison(.mediaType, .equal, .value(.integer(MediaType.anyAudio.rawValue))))
        let video = Predicate.comparison(Comparison(.mediaType, .equal, .value(.integer(MediaType.anyVideo.rawValue))))
        let audioClass = "object.item.audioItem.musicTrack", videoClass = "object.item.videoItem"
        func matching(_ test: (String) -> Bool) -> Predicate {
            switch (test(audioClass), test(videoClass)) {
            case (true, true): return .all
            case (true, false): return audio
            case (false, true): return video
            case (false, false): return .none
            }
        }
        switch op {
        case .derivedFrom: return matching { $0 == value || $0.hasPrefix(value + ".") }
        case .equal: return matching { $0 == value }
        case .notEqual: return matching { $0 != value }
        case .contains: return matching { $0.contains(value) }
        case .doesNotContain: return matching { !$0.contains(value) }
        default: throw Unsupported(description: "upnp:class takes =, !=, contains, doesNotContain or derivedfrom")
        }
    }
}
