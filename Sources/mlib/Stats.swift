import ArgumentParser
import Foundation
import MediaIndex

struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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
            "Duration:   \(Self.duration(stats.totalDuration))",
            "Size:       \(ByteCountFormatter.string(fromByteCount: stats.totalSize, countStyle: .file))",
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

    /// "3d 4h 05m 06s", "1h 02m 03s", "4m 05s".
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (d, h, m, s) = (total / 86400, total / 3600 % 24, total / 60 % 60, total % 60)
        if d > 0 { return String(format: "%dd %dh %02dm %02ds", d, h, m, s) }
        if h > 0 { return String(format: "%dh %02dm %02ds", h, m, s) }
        return String(format: "%dm %02ds", m, s)
    }
}
