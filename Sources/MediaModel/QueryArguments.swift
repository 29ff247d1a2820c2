/// The QUERY arguments every command takes (`mlib ls`, `export`, `play`, `playlist`): each argument is
/// either a format string — it contains an operator such as `==`, `<`, `CONTAINS`, `BETWEEN` — or a
/// short-form term (`artist:Björk`, `year:1990..`, a bare word). All arguments are ANDed. No arguments:
/// everything.
public enum QueryArguments {
    public static func predicate(_ arguments: [String]) throws -> Predicate {
        var parts: [Predicate] = []
        for argument in arguments {
            if PredicateParser.looksLikeFormat(argument) {
                do { parts.append(try PredicateParser.parse(argument)) } catch let e as QueryError {
                    // `mlib ls artist == '"x"'` arrives split into words: try them as one format string.
                    let joined = arguments.joined(separator: " ")
                    if arguments.count > 1, let p = try? PredicateParser.parse(joined) { return p }
                    throw e
                }
            } else {
                parts.append(try ShortQueryParser.parse(term: argument))
            }
        }
        return .allOf(parts)
    }
}
