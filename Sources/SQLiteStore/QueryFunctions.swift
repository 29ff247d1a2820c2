import GRDB
import MediaIndex
import MediaModel

/// SQL functions the compiled queries call, registered on every connection (SQLiteIndex's
/// `prepareDatabase`). Each is the very Swift function the in-memory evaluator uses, so both agree.
enum QueryFunctions {
    /// `mlib_fold(text, options)`: `TextFolding.fold` (options: 1 = [c], 2 = [d], 3 = [cd]).
    static let fold = DatabaseFunction("mlib_fold", argumentCount: 2, pure: true) { values in
        guard let s = String.fromDatabaseValue(values[0]) else { return nil }
        let options = Comparison.Options(rawValue: UInt8(truncatingIfNeeded: Int.fromDatabaseValue(values[1]) ?? 0))
        return TextFolding.fold(s, options)
    }

    /// `mlib_matches(text, pattern, options)`: MATCHES, the whole text against an ICU regular expression.
    static let matches = DatabaseFunction("mlib_matches", argumentCount: 3, pure: true) { values in
        guard let s = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]) else { return nil }
        let options = Comparison.Options(rawValue: UInt8(truncatingIfNeeded: Int.fromDatabaseValue(values[2]) ?? 0))
        return RegexMatcher.matches(s, pattern: pattern, options: options)
    }

    /// `mlib_strip_articles(folded)`: drops a leading "the ", "a ", "an " (sorting that ignores articles).
    static let stripArticles = DatabaseFunction("mlib_strip_articles", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(TextMatching.strippingArticles)
    }

    static func install(_ db: Database) {
        db.add(function: fold)
        db.add(function: matches)
        db.add(function: stripArticles)
    }
}
