import Foundation
import MediaModel

/// QUERY arguments as every command reads them (`QueryArguments`), with its warnings about terms that look
/// like mistyped operators printed on standard error: the query still runs, but an empty result has a reason.
enum QueryInput {
    static func predicate(_ arguments: [String]) throws -> MediaModel.Predicate {
        let (predicate, warnings) = try QueryArguments.parse(arguments)
        for warning in warnings { printError("warning: " + warning) }
        return predicate
    }
}
