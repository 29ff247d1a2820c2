import ArgumentParser
import MediaModel
import MediaProbe

/// `mlib info --show KEYS`, as ffprobe's -show_entries or mediainfo's --Inform: only the keys asked for.
/// Keys are the property names and aliases every other command takes (`mlib fields`, `ls -f`), plus the
/// report's sections: streams, pictures, chapters, tags.
///
/// Text: a block per file, `path=…` then one `key=value` line per key as the user wrote it (empty when the
/// file has no value), values as `ls -f` prints them; sections give one line per stream, picture or
/// chapter (`stream=…`) and per raw tag (`tag:ALBUM=…`). JSON: the `info --json` object cut down to the
/// keys (under "item", by property name; tags under "item" too), so it is a subset of the full schema.
struct InfoSelection: Sendable {
    enum Section: String, CaseIterable, Sendable { case streams, pictures, chapters, tags }
    enum Key: Sendable {
        case property(MediaProperty, name: String)
        case section(Section)
    }
    let keys: [Key]

    /// Reads `duration,samplerate,streams`; an unknown key is a `QueryError` with a suggestion (exit 2).
    init(parsing text: String) throws {
        var keys: [Key] = []
        var offset = 0
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            defer { offset += raw.count + 1 }
            let name = raw.trimmingCharacters(in: .whitespaces)
            if let section = Section(rawValue: name.lowercased()) {
                keys.append(.section(section))
            } else if let property = MediaProperty(name: name) {
                keys.append(.property(property, name: name))
            } else {
                throw QueryError("unknown key '\(name)' (a field of mlib fields, or streams, pictures, chapters, tags)",
                                 query: text, position: offset)
            }
        }
        self.keys = keys
    }

    static let completion = CompletionKind.list(MediaProperty.allCases.map(\.rawValue) + Section.allCases.map(\.rawValue))

    func text(_ probe: ProbeResult) -> String {
        let item = probe.item
        var lines = ["path=" + item.path.string]
        for key in keys {
            switch key {
            case .property(let p, let name):
                lines.append(name + "=" + (item[p].map { ItemTemplate.display($0, p) } ?? ""))
            case .section(.streams): lines += probe.streams.map { "stream=" + InfoText.streamLine($0) }
            case .section(.pictures): lines += probe.pictures.map { "picture=" + InfoText.pictureLine($0) }
            case .section(.chapters): lines += probe.chapters.enumerated().map { "chapter=" + InfoText.chapterLine($1, number: $0 + 1) }
            case .section(.tags): lines += item.tags.sorted { $0.key < $1.key }.map { "tag:\($0.key)=\($0.value)" }
            }
        }
        return lines.map { $0.replacingOccurrences(of: "\n", with: " ⏎ ") }.joined(separator: "\n") + "\n"
    }

    func json(_ probe: ProbeResult) -> JSONValue {
        guard case .object(let full) = probe.json, case .object(let fullItem)? = full.first(where: { $0.0 == "item" })?.1 else {
            return probe.json
        }
        var wanted: Set<String> = ["path"]
        for key in keys {
            switch key {
            case .property(let p, _): wanted.insert(p.rawValue)
            case .section(let s): wanted.insert(s.rawValue)
            }
        }
        let item = fullItem.filter { wanted.contains($0.0) }
        let sections = full.filter { [Section.streams, .pictures, .chapters].map(\.rawValue).contains($0.0) && wanted.contains($0.0) }
        return .object(full.filter { ["path", "ok", "partial"].contains($0.0) } + [("item", .object(item))] + sections)
    }
}
