import Foundation
import MediaModel
import TagWriting

/// How `mlib tag` shows its plan and its result: old → new per file, a summary for many, or JSON.
enum TagReportText {
    /// Files shown one by one; above this, one line per distinct change.
    static let detailLimit = 20

    static func values(_ list: [String]) -> String {
        list.isEmpty ? "(none)" : list.joined(separator: MediaProperty.valueSeparator)
    }

    /// `failures`: also say which files failed (false when `summary` follows and says it).
    static func show(_ reports: [TagFileReport], json: Bool, failures: Bool = true) {
        if json { printJSON(reports); return }
        var out = ""
        let changing = reports.filter(\.changesSomething)
        if changing.count <= detailLimit {
            for report in changing {
                out += report.path + "\n"
                for change in report.changes { out += "  \(change.key): \(values(change.old)) → \(values(change.new))\n" }
                if report.picturesBefore != report.picturesAfter { out += "  pictures: \(report.picturesBefore) → \(report.picturesAfter)\n" }
                if !report.unsupported.isEmpty { out += "  not stored by this format: \(report.unsupported.joined(separator: ", "))\n" }
            }
        } else {
            var counts: [String: Int] = [:]
            var order: [String] = []
            for report in changing {
                for change in report.changes {
                    let line = "\(change.key) → \(values(change.new))"
                    if counts[line] == nil { order.append(line) }
                    counts[line, default: 0] += 1
                }
            }
            out += "\(changing.count) files change:\n"
            for line in order { out += "  \(line) (\(counts[line]!) files)\n" }
        }
        let same = reports.filter { $0.outcome == .unchanged }.count
        if same > 0 { out += "\(same) file\(same == 1 ? "" : "s") already as asked\n" }
        print(out, terminator: "")
        if failures { for report in reports where report.outcome == .failed { printError(report.error ?? report.path) } }
    }

    static func summary(_ reports: [TagFileReport]) {
        let inPlace = reports.filter { $0.outcome == .inPlace }.count
        let rewritten = reports.filter { $0.outcome == .rewritten }.count
        let bytes = reports.reduce(0) { $0 + $1.bytesWritten }
        for report in reports where report.outcome == .failed { printError(report.error ?? report.path) }
        for report in reports where !report.unsupported.isEmpty && report.outcome != .failed {
            printError("\(report.path): not stored by this format: \(report.unsupported.joined(separator: ", "))")
        }
        print("wrote \(inPlace + rewritten) file\(inPlace + rewritten == 1 ? "" : "s") (\(inPlace) in place, \(rewritten) rewritten, \(bytes) bytes)")
    }

    static func printJSON(_ reports: [TagFileReport]) {
        let rows = reports.map { r in
            JSONValue.object([
                ("path", .string(r.path)), ("outcome", .string(r.outcome.rawValue)),
                ("changes", .array(r.changes.map { c in
                    .object([("key", .string(c.key)), ("old", .array(c.old.map(JSONValue.string))), ("new", .array(c.new.map(JSONValue.string)))])
                })),
                ("picturesBefore", .int(Int64(r.picturesBefore))), ("picturesAfter", .int(Int64(r.picturesAfter))),
                ("unsupported", .array(r.unsupported.map(JSONValue.string))),
                ("bytesWritten", .int(Int64(r.bytesWritten))), ("error", r.error.map(JSONValue.string) ?? .null),
            ])
        }
        print(JSONValue.array(rows).serialized(pretty: true))
    }
}
