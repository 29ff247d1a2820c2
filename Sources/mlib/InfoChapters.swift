import MediaModel
import MediaProbe

/// `mlib info --chapters`: the chapters only, numbered from 1. Text: the path, then `#N start – end  title`
/// per chapter; JSON: {"path", "chapters": [{"index", "start", "end", "title"}]} (seconds).
enum InfoChapters {
    static func text(_ probe: ProbeResult) -> String {
        ([probe.item.path.string] + probe.chapters.enumerated().map { "  " + InfoText.chapterLine($1, number: $0 + 1) })
            .joined(separator: "\n") + "\n"
    }

    static func json(_ probe: ProbeResult) -> JSONValue {
        .object([("path", probe.item.path.json),
                 ("chapters", .array(probe.chapters.enumerated().map { n, c in
                     .object([("index", .int(Int64(n + 1))), ("start", .double(c.start)), ("end", .double(c.end)), ("title", .string(c.title))])
                 }))])
    }
}
