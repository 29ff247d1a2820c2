import ArgumentParser
import Foundation
import MediaModel

/// `mlib fields`: every property a query, a sort or a template can name, like `beet fields`.
struct Fields: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fields",
        abstract: "List the properties queries, --sort and -f templates can name: name, type, aliases, an example.",
        discussion: """
            Names are case-insensitive; an alias works wherever the name does. "search" marks the \
            properties bare words and SEARCH look in (kept folded in the index); "user" the user data \
            mlib set and mlib rate change.

            \(ExitStatus.help(one: nil, library: false))
            """)

    @Flag(name: .long, help: "Print a JSON array of {name, type, origin, aliases, searchable, example}.")
    var json = false

    func run() throws {
        let aliases = Dictionary(grouping: MediaProperty.aliases, by: \.value).mapValues { $0.map(\.key).sorted() }
        if json {
            let rows = MediaProperty.allCases.map { p in
                JSONValue.object([
                    ("name", .string(p.rawValue)), ("type", .string(p.spec.type.rawValue)),
                    ("origin", .string(p.spec.origin.rawValue)),
                    ("aliases", .array((aliases[p] ?? []).map(JSONValue.string))),
                    ("searchable", .bool(p.spec.searchable)), ("example", .string(Self.example(p, alias: aliases[p]?.first))),
                ])
            }
            print(JSONValue.array(rows).serialized(pretty: true))
            return
        }
        let nameWidth = MediaProperty.allCases.map(\.rawValue.count).max() ?? 0
        var out = StandardOutput()
        for p in MediaProperty.allCases {
            var kind = p.spec.type.rawValue
            if p.spec.searchable { kind += ", search" }
            if p.spec.origin == .library && p != .persistentID && p != .dateAdded { kind += ", user" }
            let names = aliases[p].map { " (" + $0.joined(separator: ", ") + ")" } ?? ""
            out.write(p.rawValue.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                      + (kind + names).padding(toLength: 44, withPad: " ", startingAt: 0) + "  "
                      + Self.example(p, alias: aliases[p]?.first) + "\n")
        }
        out.flush()
    }

    /// A short-form term that uses the property, by its shortest name.
    static func example(_ p: MediaProperty, alias: String?) -> String {
        let name = [p.rawValue, alias].compactMap { $0 }.min { $0.count < $1.count }!
        switch p.spec.type {
        case .text: return p == .path ? "\(name):/music/" : "\(name):word"
        case .integer: return p == .rating ? "\(name):4..5" : p == .year ? "\(name):1990..1999" : "\(name):1"
        case .real: return "\(name):..-6"
        case .bool: return "\(name):yes"
        case .date: return "\(name):2001-06"
        case .timestamp: return "\(name):-7d.."
        case .duration: return "\(name):3:00..5:00"
        case .mediaType: return "\(name):music"
        }
    }
}
