import MediaModel
import MediaProbe

/// What lyrics a file holds, in the `mlib info` report: one line per set (source, language, description,
/// synced or plain) and, with --json, a "lyrics" array of the same facts. The lyrics themselves are
/// `mlib lyrics`'s.
enum InfoLyrics {
    static func read(_ probe: ProbeResult) -> LyricsReport { LyricsReader.read(probe.item.path) }

    static func text(_ report: LyricsReport) -> [String] {
        guard !report.lyrics.isEmpty else { return [] }
        return ["  Lyrics (\(report.lyrics.count))"] + report.lyrics.map { "    " + line($0) }
    }

    static func line(_ l: Lyrics) -> String {
        var parts = [l.source.isSidecar ? "sidecar " + (l.origin ?? l.source.rawValue) : l.source.rawValue.uppercased() + (l.source == .tag ? " " + (l.origin ?? "") : "")]
        if let language = l.language { parts.append(language) }
        if let description = l.description { parts.append("\"\(description)\"") }
        parts.append(l.lines.map { "synced, \($0.count) lines" } ?? "plain")
        return parts.joined(separator: ", ")
    }

    static func json(_ report: LyricsReport) -> JSONValue {
        .array(report.lyrics.map { l in
            .object([("source", .string(l.source.rawValue)), ("origin", l.origin.map(JSONValue.string) ?? .null),
                     ("language", l.language.map(JSONValue.string) ?? .null), ("description", l.description.map(JSONValue.string) ?? .null),
                     ("synced", .bool(l.isSynced)), ("lineCount", .int(Int64(l.lines?.count ?? 0)))])
        })
    }

    /// `probe.json` with "lyrics" added.
    static func adding(_ report: LyricsReport, to json: JSONValue) -> JSONValue {
        guard case .object(var members) = json else { return json }
        members.append(("lyrics", Self.json(report)))
        return .object(members)
    }
}
