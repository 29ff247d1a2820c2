import Foundation

/// Swift values usable as query literals.
public protocol MediaValueConvertible: Sendable {
    var mediaValue: MediaValue { get }
}
extension MediaValue: MediaValueConvertible { public var mediaValue: MediaValue { self } }
extension String: MediaValueConvertible { public var mediaValue: MediaValue { .text(self) } }
extension Substring: MediaValueConvertible { public var mediaValue: MediaValue { .text(String(self)) } }
extension Int: MediaValueConvertible { public var mediaValue: MediaValue { .integer(Int64(self)) } }
extension Int64: MediaValueConvertible { public var mediaValue: MediaValue { .integer(self) } }
extension Int32: MediaValueConvertible { public var mediaValue: MediaValue { .integer(Int64(self)) } }
extension Double: MediaValueConvertible { public var mediaValue: MediaValue { .real(self) } }
extension Bool: MediaValueConvertible { public var mediaValue: MediaValue { .bool(self) } }
extension MediaType: MediaValueConvertible { public var mediaValue: MediaValue { .integer(rawValue) } }
extension Date: MediaValueConvertible { public var mediaValue: MediaValue { .real(timeIntervalSince1970) } }

/// A small Swift builder over the AST, for library users:
///
///     let p: Predicate = MediaProperty.artist.contains("björk", .cd) && MediaProperty.year.between(1990, 1999)
///     let q: Predicate = .albumTitle == "Homogenic" || !(.genre == "Pop")   // with type context
///
/// Values are converted and checked (`normalized()`) when the predicate is compiled or evaluated.
extension MediaProperty {
    private func compare(_ op: Comparison.Operator, _ value: some MediaValueConvertible,
                         _ options: Comparison.Options = []) -> Predicate {
        .comparison(Comparison(self, op, .value(value.mediaValue), options: options))
    }
    public func equals(_ v: some MediaValueConvertible, _ options: Comparison.Options = []) -> Predicate { compare(.equal, v, options) }
    public func notEquals(_ v: some MediaValueConvertible, _ options: Comparison.Options = []) -> Predicate { compare(.notEqual, v, options) }
    public func contains(_ v: some MediaValueConvertible, _ options: Comparison.Options = []) -> Predicate { compare(.contains, v, options) }
    public func beginsWith(_ v: some MediaValueConvertible, _ options: Comparison.Options = []) -> Predicate { compare(.beginsWith, v, options) }
    public func endsWith(_ v: some MediaValueConvertible, _ options: Comparison.Options = []) -> Predicate { compare(.endsWith, v, options) }
    /// `*` any run, `?` one character.
    public func like(_ pattern: String, _ options: Comparison.Options = []) -> Predicate { compare(.like, pattern, options) }
    /// The whole value must match the regular expression.
    public func matches(_ regex: String, _ options: Comparison.Options = []) -> Predicate { compare(.matches, regex, options) }
    public func between(_ lo: some MediaValueConvertible, _ hi: some MediaValueConvertible,
                        _ options: Comparison.Options = []) -> Predicate {
        .comparison(Comparison(self, .between, .range(lo.mediaValue, hi.mediaValue), options: options))
    }
    public func isIn(_ values: [any MediaValueConvertible], _ options: Comparison.Options = []) -> Predicate {
        .comparison(Comparison(self, .in, .list(values.map(\.mediaValue)), options: options))
    }
    /// The property has no value.
    public var isMissing: Predicate { .comparison(Comparison(self, .equal, .null)) }
    /// The property has a value.
    public var isPresent: Predicate { .comparison(Comparison(self, .notEqual, .null)) }

    public static func == (p: MediaProperty, v: some MediaValueConvertible) -> Predicate { p.compare(.equal, v) }
    public static func != (p: MediaProperty, v: some MediaValueConvertible) -> Predicate { p.compare(.notEqual, v) }
    public static func < (p: MediaProperty, v: some MediaValueConvertible) -> Predicate { p.compare(.less, v) }
    public static func <= (p: MediaProperty, v: some MediaValueConvertible) -> Predicate { p.compare(.lessOrEqual, v) }
    public static func > (p: MediaProperty, v: some MediaValueConvertible) -> Predicate { p.compare(.greater, v) }
    public static func >= (p: MediaProperty, v: some MediaValueConvertible) -> Predicate { p.compare(.greaterOrEqual, v) }
}

extension Predicate {
    /// AND, flattening nested ANDs; `.all` is the identity.
    public static func && (a: Predicate, b: Predicate) -> Predicate {
        switch (a, b) {
        case (.all, _): return b
        case (_, .all): return a
        case (.and(let x), .and(let y)): return .and(x + y)
        case (.and(let x), _): return .and(x + [b])
        case (_, .and(let y)): return .and([a] + y)
        default: return .and([a, b])
        }
    }
    /// OR, flattening nested ORs; `.none` is the identity.
    public static func || (a: Predicate, b: Predicate) -> Predicate {
        switch (a, b) {
        case (.none, _): return b
        case (_, .none): return a
        case (.or(let x), .or(let y)): return .or(x + y)
        case (.or(let x), _): return .or(x + [b])
        case (_, .or(let y)): return .or([a] + y)
        default: return .or([a, b])
        }
    }
    public static prefix func ! (p: Predicate) -> Predicate { .not(p) }

    /// All of `ps` (`.all` when empty).
    public static func allOf(_ ps: [Predicate]) -> Predicate { ps.reduce(.all, &&) }
    /// Any of `ps` (`.none` when empty).
    public static func anyOf(_ ps: [Predicate]) -> Predicate { ps.reduce(.none, ||) }
}
