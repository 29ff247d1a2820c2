import Foundation
import MediaModel

/// The SQL of a `HistoryTerm`, the same in both dialects: the item's rows in `history` (schema "v17" /
/// "pg v14") of the term's kind within its window, counted and compared. By the index `history_item`
/// (item_id, played_at): one range per item. The window's start is now minus the window, computed when the
/// query is compiled (a number, not a bound value: the planner's conditions are text).
enum HistoryCondition {
    static func sql(_ term: HistoryTerm, now: Date = Date()) -> String {
        let kind = term.kind == .plays ? Listen.Kind.play : .skip
        var count = "SELECT COUNT(*) FROM history h WHERE h.item_id = items.id AND h.kind = '\(kind.rawValue)'"
        if let window = term.window {
            count += " AND h.played_at >= " + String(format: "%.3f", now.timeIntervalSince1970 - window)
        }
        let op: String = switch term.op {
        case .equal: "="
        case .notEqual: "<>"
        default: term.op.rawValue
        }
        return "(\(count)) \(op) \(term.count)"
    }
}
