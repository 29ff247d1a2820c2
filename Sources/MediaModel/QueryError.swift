/// A query that cannot be parsed or does not make sense (`year CONTAINS "x"`), with the position of the
/// offending token when it came from text, so the CLI can draw a caret under it.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// The text that was parsed, if any.
    public var query: String?
    /// Offset in `Character`s into `query` where the problem starts.
    public var position: Int?

    public init(_ message: String, query: String? = nil, position: Int? = nil) {
        self.message = message
        self.query = query
        self.position = position
    }

    /// One line: `expected a value after '==' at position 9`.
    public var description: String {
        guard let position else { return message }
        return "\(message) (at position \(position + 1))"
    }

    /// The query and a caret under the offending character, for terminals:
    ///
    ///     artist == AND year > 1
    ///               ^
    /// A long query shows only the 60 characters either side of the problem, with "…" for the rest.
    public var caretDiagram: String? {
        guard let query, let position, !query.contains("\n") else { return nil }
        let characters = Array(query)
        let start = max(0, min(position, characters.count) - 60), end = min(characters.count, position + 60)
        let head = start > 0 ? "…" : "", tail = end < characters.count ? "…" : ""
        return head + String(characters[start..<end]) + tail + "\n" + String(repeating: " ", count: position - start + head.count) + "^"
    }

    /// Returns this error located in `query` at `position` (keeps an existing position).
    func located(in query: String, at position: Int) -> QueryError {
        var e = self
        if e.query == nil { e.query = query; e.position = position }
        return e
    }
}
