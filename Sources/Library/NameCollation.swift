import Foundation

/// The order in which the view lists names, as Debian's mpd lists them: mpd compares directory and file
/// names with ICU's collator for the default locale (`ucol_open("")`, `ucol_strcollUTF8`), which ICU takes
/// from `LC_ALL`, else `LC_MESSAGES`, else `LANG`. Measured with mpd 0.23.12 (ICU 72): under both
/// `C.UTF-8` and `en_US.UTF-8` the order is ICU's root collation (" z", "_x", "1", "a", "A", "a b", "a-b",
/// "ab", "ábc", "b", "B", "é", "Zebra"), not the bytes' ("Zebra" before "apple"). Foundation's locale
/// comparison is the same ICU collator (Foundation's own copy of ICU).
public struct NameCollation: Sendable {
    public let locale: Locale

    /// The collation the environment picks, as ICU picks it for mpd (`C`/`POSIX`: the root collation).
    public static let current = NameCollation(environment: ProcessInfo.processInfo.environment)

    public init(locale: Locale) { self.locale = locale }

    public init(environment: [String: String]) {
        let name = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        // "en_US.UTF-8@euro" → "en_US"; "C.UTF-8" → "C".
        let language = String(name.prefix { $0 != "." && $0 != "@" })
        locale = Locale(identifier: language == "C" || language == "POSIX" || language.isEmpty ? "root" : language)
    }

    /// ICU's comparison: negative, zero or positive. Equal bytes are equal without asking ICU (album
    /// names within a folder mostly are).
    public func compare(_ a: String, _ b: String) -> ComparisonResult {
        if a == b { return .orderedSame }
        return a.compare(b, options: [], range: nil, locale: locale)
    }

    public func areInIncreasingOrder(_ a: String, _ b: String) -> Bool { compare(a, b) == .orderedAscending }
}
