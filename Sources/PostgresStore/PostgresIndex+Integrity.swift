import Foundation
import MediaIndex

// The PostgreSQL counterpart of SQLite's `integrityCheck()`. The server keeps its own pages consistent (WAL,
// checksummed when initdb was asked to), so what is checked is what mlib derives and the server cannot
// (`derivedColumnProblems`, shared with SQLite) and, where the `amcheck` extension is installed in the
// database, its B-tree check of mlib's indexes (mlib does not install it: that needs a superuser).
extension PostgresIndex {
    /// Nothing to check before writes: the server keeps its own pages whole.
    public func prepareForWrites() throws {}

    /// "ok", or each broken rule with how many rows break it and one example, separated by "; ".
    public func integrityCheck() throws -> String {
        var problems = try derivedColumnProblems()
        let indexes = try read { x in
            try x.rows("""
                SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
                JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
                WHERE a.amname = 'btree' AND n.nspname = current_schema()
                    AND EXISTS (SELECT FROM pg_extension WHERE extname = 'amcheck') ORDER BY c.relname
                """).compactMap { $0.text(0) }
        }
        for index in indexes {
            do {
                _ = try read { x in try x.rows("SELECT bt_index_check(to_regclass(\(ItemRow.quoted(index))), true)") }
            } catch {
                problems.append("index \(index): \(error)")
            }
        }
        return problems.isEmpty ? "ok" : problems.joined(separator: "; ")
    }
}
