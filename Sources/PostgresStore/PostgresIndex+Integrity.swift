import Foundation
import MediaIndex
import MediaModel
import PostgresNIO

// The PostgreSQL counterpart of SQLite's `integrityCheck()`. The server keeps its own pages consistent (WAL,
// checksummed when initdb was asked to), so what is checked here is what mlib derives and the server cannot:
// each row's directory and path text from its path bytes, the folded search columns from the tags, and the
// scan generation counter above every generation a row records (a counter gone back would make new rows
// look old to move detection). Where the `amcheck` extension is installed in the database, its B-tree check
// runs on mlib's indexes too (mlib does not install it: that needs a superuser).
extension PostgresIndex {
    /// "ok", or each broken rule with how many rows break it and one example, separated by "; ".
    public func integrityCheck() throws -> String {
        var problems: [String] = []
        // Directories: `dir` is the path up to its last slash ("/" for a file at the top), as MediaPath.directory.
        for table in ["items", "failures"] {
            let sql = """
                SELECT count(*), min(path_text) FROM \(table) WHERE NOT (
                    (dir = '\\x2f'::bytea AND substring(path FROM 1 FOR 1) = '\\x2f'::bytea AND length(path) > 1
                        AND position('\\x2f'::bytea IN substring(path FROM 2)) = 0)
                    OR (dir <> '\\x2f'::bytea AND substring(path FROM 1 FOR length(dir) + 1) = dir || '\\x2f'::bytea
                        AND length(path) > length(dir) + 1 AND position('\\x2f'::bytea IN substring(path FROM length(dir) + 2)) = 0))
                """
            let row = try session.run { s in try s.query(SQLText(sql)) }.first.map { $0.makeRandomAccess() }
            if let count = row?[0].value(Int64.self), count > 0 {
                problems.append("\(table): \(count) rows whose directory is not their path's (e.g. \(row?[1].value(String.self) ?? "?"))")
            }
        }
        // What a scan writes beside the tags, compared with what it would write now.
        let folded = ItemRow.searchable.map { "items." + ItemRow.quoted(ItemRow.foldedColumn($0)) }.joined(separator: ", ")
        let rows = try read { x in try x.rows("SELECT \(raw: ItemRow.selectColumns), items.path_text, \(raw: folded) FROM items") }
        var badText = (count: 0, example: ""), badFolded = (count: 0, example: "")
        let first = 3 + ItemRow.stored.count
        for row in rows {
            let item = ItemRow.item(row)
            if row.text(first) != item.path.string {
                badText.count += 1; if badText.example.isEmpty { badText.example = item.path.string }
            }
            for (offset, property) in ItemRow.searchable.enumerated()
            where row.text(first + 1 + offset) != item[property]?.text.map({ ItemRow.folded($0, of: property) }) {
                badFolded.count += 1; if badFolded.example.isEmpty { badFolded.example = "\(item.path.string): \(property.rawValue)" }
                break
            }
        }
        if badText.count > 0 { problems.append("items: \(badText.count) rows whose path text is not their path's (e.g. \(badText.example))") }
        if badFolded.count > 0 { problems.append("items: \(badFolded.count) rows whose folded search columns do not match their tags (e.g. \(badFolded.example))") }
        // The generation counter.
        let generations = try session.run { s in
            try s.query(SQLText("""
                SELECT (SELECT value FROM scan_state WHERE key = 'generation'),
                       greatest((SELECT max(added_gen) FROM items), (SELECT max(missing_gen) FROM items), (SELECT max(complete_gen) FROM roots))
                """))
        }.first.map { $0.makeRandomAccess() }
        let counter = generations?[0].value(Int64.self), highest = generations?[1].value(Int64.self) ?? 0
        if counter == nil { problems.append("scan_state: no generation counter") }
        if let counter, counter < highest { problems.append("scan_state: generation \(counter) is below \(highest), recorded by a row") }
        // amcheck, where installed.
        let amcheck = try session.run { s in try s.scalar(SQLText("SELECT count(*) FROM pg_extension WHERE extname = 'amcheck'"), as: Int64.self) } ?? 0
        if amcheck > 0 {
            let indexes = try session.run { s in
                try s.query(SQLText("""
                    SELECT c.oid::bigint, c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
                    JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
                    WHERE a.amname = 'btree' AND n.nspname = current_schema() ORDER BY c.relname
                    """))
            }.map { row in let r = row.makeRandomAccess(); return (oid: r[0].value(Int64.self) ?? 0, name: r[1].value(String.self) ?? "?") }
            for index in indexes {
                do {
                    var q = SQLText()
                    q.sql = "SELECT bt_index_check(\(q.bind(index.oid))::oid::regclass, true)"
                    _ = try session.run { s in try s.query(q) }
                } catch {
                    problems.append("index \(index.name): \(error)")
                }
            }
        }
        return problems.isEmpty ? "ok" : problems.joined(separator: "; ")
    }
}
