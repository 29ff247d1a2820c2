import Foundation
import MediaModel

/// The SQL of a `HistoryTerm`, the same in both dialects: the item's rows in `history` (schema "v17" /
/// "pg v14") of the term's kind within its window, counted and compared. By the index `history_item`
/// (item_id, played_at): one range per item. The window's start is now minus the window, computed when the
/// query is compiled (a number, not a bound value: the planner's conditions are text).
enum HistoryCondition {
    static func sql(_ term: HistoryTerm, now: Date = Date()) -> String {
        let op: String = switch term.op {
        case .equal: "="
        case .notEqual: "<>"
        default: term.op.rawValue
        }
        let right = term.against.map { "(\(count($0.kind, $0.window, term.listener, now)))" } ?? String(term.count)
        return "(\(count(term.kind, term.window, term.listener, now))) \(op) \(right)"
    }

    /// The item's listens of `kind` within `window` seconds before `now` (nil: all), of `listener` (nil:
    /// the owner's), counted.
    private static func count(_ kind: HistoryTerm.Kind, _ window: Double?, _ listener: String?, _ now: Date) -> String {
        let listen = kind == .plays ? Listen.Kind.play : .skip
        var count = "SELECT COUNT(*) FROM history h WHERE h.item_id = items.id AND h.kind = '\(listen.rawValue)'"
        if let window { count += " AND h.played_at >= " + String(format: "%.3f", now.timeIntervalSince1970 - window) }
        // A literal (the planner's conditions are text): quotes doubled, as both dialects read them.
        if let listener {
            count += " AND h.user_name = '" + listener.replacingOccurrences(of: "'", with: "''") + "'"
        } else {
            // The owner's query (no --user; a view the servers evaluate for the owner) counts the owner's
            // listens, as the owner's playCount does: the rows without a user (the CLI's, the MPD player's)
            // and the owner account's; not another user's (theirs are theirs, as their playCount is).
            count += " AND (h.user_name IS NULL OR h.user_name IN (SELECT name FROM users WHERE is_owner = 1))"
        }
        return count
    }
}
