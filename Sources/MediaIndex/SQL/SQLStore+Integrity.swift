import Foundation
import MediaModel

// What mlib derives and the database cannot check, the same on both stores (each store checks its own pages
// besides: SQLite's integrity_check and FTS5's, PostgreSQL's amcheck where installed): each row's directory
// and path text from its path bytes, the folded search columns from the tags, and the scan generation counter
// above every generation a row records (a counter gone back would make new rows look old to move detection).
extension SQLStore {
    /// Each broken rule with how many rows break it and one example; empty when every row is as mlib writes it.
    package func derivedColumnProblems() throws -> [String] {
        var problems: [String] = []
        func report(_ count: Int, _ what: String, _ example: String) {
            if count > 0 { problems.append("\(what): \(count) rows whose \(example))") }
        }
        // Directories: `dir` is the path up to its last slash ("/" for a file at the top), as MediaPath.directory.
        func directoryIsPaths(_ row: SQLRow) -> Bool {
            guard let path = row.path(0), let dir = row.path(1) else { return false }
            return path.bytes.first == UInt8(ascii: "/") && path.bytes.last != UInt8(ascii: "/") && path.directory == dir
        }
        try read { x in
            var failures = (count: 0, example: "")
            try x.forEachRow("SELECT path, dir, path_text FROM failures ORDER BY path_text") { row in
                if !directoryIsPaths(row) { failures.count += 1; if failures.count == 1 { failures.example = row.text(2) ?? "?" } }
            }
            report(failures.count, "failures", "directory is not their path's (e.g. \(failures.example)")
            // What a scan writes beside the tags, compared with what it would write now.
            let folded = ItemRow.searchable.map { "items." + ItemRow.quoted(ItemRow.foldedColumn($0)) }.joined(separator: ", ")
            let first = 3 + ItemRow.stored.count
            var badDirectory = (count: 0, example: ""), badText = (count: 0, example: ""), badFolded = (count: 0, example: "")
            try x.forEachRow("SELECT \(raw: ItemRow.selectColumns), items.path_text, items.dir, \(raw: folded) FROM items ORDER BY items.path_text") { row in
                let item = ItemRow.item(row)
                if !directoryIsPaths(SQLRow([row[1], row[first + 1]])) {
                    badDirectory.count += 1; if badDirectory.count == 1 { badDirectory.example = item.path.string }
                }
                if row.text(first) != item.path.string {
                    badText.count += 1; if badText.count == 1 { badText.example = item.path.string }
                }
                for (offset, property) in ItemRow.searchable.enumerated()
                where row.text(first + 2 + offset) != item[property]?.text.map({ ItemRow.folded($0, of: property) }) {
                    badFolded.count += 1; if badFolded.count == 1 { badFolded.example = "\(item.path.string): \(property.rawValue)" }
                    break
                }
            }
            report(badDirectory.count, "items", "directory is not their path's (e.g. \(badDirectory.example)")
            report(badText.count, "items", "path text is not their path's (e.g. \(badText.example)")
            report(badFolded.count, "items", "folded search columns do not match their tags (e.g. \(badFolded.example)")
            let generations = try x.row("""
                SELECT (SELECT value FROM scan_state WHERE key = 'generation'), (SELECT max(added_gen) FROM items),
                    (SELECT max(missing_gen) FROM items), (SELECT max(complete_gen) FROM roots)
                """)
            let highest = (1...3).compactMap { generations?.int64($0) }.max() ?? 0
            if let counter = generations?.int64(0) {
                if counter < highest { problems.append("scan_state: generation \(counter) is below \(highest), recorded by a row") }
            } else {
                problems.append("scan_state: no generation counter")
            }
        }
        return problems
    }
}
