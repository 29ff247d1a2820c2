import Foundation
import Library
import MediaModel

/// A compiled MPD filter: mlib's predicate (`MediaPredicate`, which the view and the store both run), with
/// terms on the tags mlib keeps only as raw tags (Performer, Conductor, Work, Label, the sort tags…) as
/// leaves of their own. Those have no column in the store, so they are decided on the view's slots (the
/// values `list performer` prints) or on a queued item's tags, as mpd decides them on each song's tag.
indirect enum MPDFilter: Sendable, Equatable {
    case predicate(MediaPredicate)
    case rawTag(RawTagTerm)
    case and([MPDFilter])
    case or([MPDFilter])
    case not(MPDFilter)

    static func combined(_ terms: [MPDFilter]) -> MPDFilter { terms.count == 1 ? terms[0] : .and(terms) }

    /// The filter as one predicate when it has no raw-tag term: then the store can run it in SQL.
    var predicate: MediaPredicate? {
        switch self {
        case .predicate(let p): return p
        case .rawTag: return nil
        case .not(let inner): return inner.predicate.map { .not($0) }
        case .and(let terms):
            let ps = terms.compactMap(\.predicate)
            return ps.count == terms.count ? .and(ps) : nil
        case .or(let terms):
            let ps = terms.compactMap(\.predicate)
            return ps.count == terms.count ? .or(ps) : nil
        }
    }

    /// A test of the view's items. Each raw-tag term is decided once per distinct value of its slot.
    func test(in view: LibrarySnapshot) throws -> (Int32) -> Bool {
        switch try viewTest(view) {
        case .never: return { _ in false }
        case .test(let f): return f
        }
    }

    /// A view test, or `never` when no item can pass: `search any` ORs a term per raw tag, and most
    /// libraries have no value of most of them that matches (`search any "zzzq"` at 100,040 songs took
    /// 50 ms asking each item's 20 raw slots; the terms that cannot match are dropped before the walk).
    private enum ViewTest {
        case never
        case test((Int32) -> Bool)
    }

    private func viewTest(_ view: LibrarySnapshot) throws -> ViewTest {
        switch self {
        case .predicate(let p):
            let filter = try ViewFilter(p, in: view)
            return .test(filter.matches)
        case .rawTag(let term): return term.test(in: view).map { .test($0) } ?? .never
        case .not(let inner):
            switch try inner.viewTest(view) {
            case .never: return .test { _ in true }
            case .test(let f): return .test { !f($0) }
            }
        case .and(let terms):
            // Every term is built (a bad regular expression in any of them is an error), then decided.
            let tests = try terms.map { try $0.viewTest(view) }
            var fs: [(Int32) -> Bool] = []
            for test in tests {
                guard case .test(let f) = test else { return .never }
                fs.append(f)
            }
            return .test { item in fs.allSatisfy { $0(item) } }
        case .or(let terms):
            var fs: [(Int32) -> Bool] = []
            for term in terms { if case .test(let f) = try term.viewTest(view) { fs.append(f) } }
            if fs.isEmpty { return .never }
            if fs.count == 1 { return .test(fs[0]) }
            return .test { item in fs.contains { $0(item) } }
        }
    }

    /// A test of whole items (the queue's).
    func test() throws -> (MediaItem) -> Bool {
        switch self {
        case .predicate(let p):
            let evaluator = try PredicateEvaluator(p)
            return evaluator.matches
        case .rawTag(let term): return term.matches
        case .not(let inner):
            let f = try inner.test()
            return { !f($0) }
        case .and(let terms):
            let fs = try terms.map { try $0.test() }
            return { item in fs.allSatisfy { $0(item) } }
        case .or(let terms):
            let fs = try terms.map { try $0.test() }
            return { item in fs.contains { $0(item) } }
        }
    }
}

/// `TAG op VALUE` on a tag mlib keeps only raw, with mpd 0.23's rules (`TagSongFilter`, `StringFilter`):
/// a song matches when one of the tag's values passes (or, without one, its fallback's values); a song
/// with neither matches only an empty `VALUE`, whatever the operator. Negation is `MPDFilter.not`.
struct RawTagTerm: Sendable, Equatable {
    enum Operation: Sendable { case equal, contains, startsWith, regex }

    let tag: MPDTag
    let operation: Operation
    let value: String
    let ignoresCase: Bool
    /// mpd applies a tag's fallbacks (ArtistSort → Artist…) when the filter names the tag, not for `any`.
    let usesFallbacks: Bool
    private let foldedValue: String
    private let regex: NSRegularExpression?

    init(tag: MPDTag, _ operation: Operation, _ value: String, ignoresCase: Bool, usesFallbacks: Bool = true) throws {
        self.tag = tag
        self.usesFallbacks = usesFallbacks
        self.operation = operation
        self.value = value
        self.ignoresCase = ignoresCase
        foldedValue = ignoresCase ? TextFolding.fold(value, .caseInsensitive) : value
        if operation == .regex {
            // mpd: PCRE, searched (not anchored), caseless for `search`.
            guard let regex = try? NSRegularExpression(pattern: value, options: ignoresCase ? [.caseInsensitive] : []) else {
                throw MPDError.badArgument("Bad regular expression")
            }
            self.regex = regex
        } else {
            regex = nil
        }
    }

    static func == (a: RawTagTerm, b: RawTagTerm) -> Bool {
        a.tag == b.tag && a.operation == b.operation && a.value == b.value && a.ignoresCase == b.ignoresCase
            && a.usesFallbacks == b.usesFallbacks
    }

    /// Whether one of the tag's values passes.
    func matches(text: String) -> Bool {
        if let regex { return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        let text = ignoresCase ? TextFolding.fold(text, .caseInsensitive) : text
        switch operation {
        case .equal: return text == foldedValue
        case .contains: return foldedValue.isEmpty || text.contains(foldedValue)
        case .startsWith: return text.hasPrefix(foldedValue)
        case .regex: return false
        }
    }

    func matches(_ item: MediaItem) -> Bool {
        // The index joins a tag's several values with "; "; split by the one rule the view's slots use.
        guard let joined = usesFallbacks ? tag.valueWithFallback(in: item) : tag.value(in: item) else { return value.isEmpty }
        return MediaProperty.splitValues(joined).contains(where: matches(text:))
    }

    /// The test of the view's items, or nil when none can pass (no value matches, and a missing tag
    /// does not either).
    func test(in view: LibrarySnapshot) -> ((Int32) -> Bool)? {
        let slots = usesFallbacks ? TagSlots(tag) : TagSlots(slots: [tag.slot])
        // A verdict per value number of each slot (its whole values and their parts).
        let verdicts = slots.slots.map { slot in
            view.slotValues[slot].enumerated().map { n, text in n == 0 ? false : matches(text: text) }
        }
        let whenMissing = value.isEmpty
        guard whenMissing || verdicts.contains(where: { $0.contains(true) }) else { return nil }
        return { item in
            var found = false, missing = false
            slots.forEachValue(item, in: view) { position, value in
                if value == 0 { missing = true } else if verdicts[position][Int(value)] { found = true }
            }
            return found || (missing && whenMissing)
        }
    }
}
