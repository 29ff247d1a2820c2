import ArgumentParser
import Foundation
import MediaIndex

struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Library statistics: items, total duration and size, counts by media type and file type.",
        discussion: ExitStatus.help(one: nil))

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .long, help: "Print the statistics as JSON.")
    var json = false

    func run() async throws {
        let stats = try libraryOptions.open().statistics()
        if json {
            try JSONOutput.write(stats)
            return
        }
        var lines = [
            "Items:      \(stats.items)",
            // The units of mlib info (Format): one library of one file reads the same in both.
            "Duration:   \(Format.duration(stats.totalDuration))",
            "Size:       \(Format.bytes(stats.totalSize))",
            "Failures:   \(stats.failures)" + (stats.failures > 0 ? " (see mlib failures)" : ""),
            "Partial:    \(stats.partial)" + (stats.partial > 0 ? " (read only in part; see mlib failures)" : ""),
            "Playlists:  \(stats.playlists)",
            "Roots:      " + (stats.roots.isEmpty ? "none" : stats.roots.map(\.string).joined(separator: "\n            ")),
        ]
        for (title, counts) in [("By media type:", stats.byMediaType), ("By file type:", stats.byFileType)] where !counts.isEmpty {
            lines.append(title)
            let width = counts.map(\.name.count).max() ?? 0
            lines += counts.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \($0.count)" }
        }
        print(lines.joined(separator: "\n"))
    }
}
