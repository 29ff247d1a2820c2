/// The "did you mean" of every mlib message about a mistyped name: property names in queries, templates
/// and sort keys, subcommand names on the command line.
public enum NameSuggestion {
    /// The candidate nearest to `name` (case-insensitive edit distance), when it is near enough to be a
    /// typo of it: at most 2 edits, or a third of the name's length for long names.
    public static func nearest(to name: String, among candidates: [String]) -> String? {
        let lower = name.lowercased()
        let best = candidates.map { ($0, editDistance(lower, $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= max(2, lower.count / 3) else { return nil }
        return best.0
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var prev = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
                prev = old
            }
        }
        return row[b.count]
    }
}
