import ArgumentParser
import Foundation
import MediaModel
import MediaProbe

struct Info: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show metadata of media files (tags, container, streams, cover art).",
        discussion: """
            Reads each file with FFmpeg and TagLib, in parallel, and prints a summary per file. With --json, \
            prints a JSON array with one object per file; with --jsonl, one object per line (see mlib(1), \
            JSON SCHEMA). Each file that cannot be read is one line on standard error.

            \(ExitStatus.help(one: "a file could not be read", library: false))
            """)

    @Flag(name: .long, help: "Print a JSON array, one object per file.")
    var json = false

    @Flag(name: .long, help: "Print one JSON object per line (JSON Lines).")
    var jsonl = false

    @Flag(name: .long, help: "Also list every raw tag (text output).")
    var tags = false

    @Option(name: [.customShort("j", allowingJoined: true), .long], help: "Files to read at once (default: the number of cores; -j4 or -j 4).")
    var jobs: Int?

    @Argument(help: ArgumentHelp("Media files to read.", valueName: "file"))
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one file.") }
        if json && jsonl { throw ValidationError("--json and --jsonl cannot be combined.") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    }

    func run() async throws {
        let paths = rawArgumentPaths()
        var out = StandardOutput()
        var failed = 0
        if json { out.write("[") }
        await MediaProbe.probeInOrder(paths, concurrency: jobs ?? MediaProbe.defaultConcurrency) { index, result in
            switch result {
            case .success(let probe):
                if json || jsonl { writeJSON(probe.json, index: index, to: &out) } else {
                    out.write(InfoText.render(probe, showTags: tags))
                    if index < paths.count - 1 { out.write("\n") }
                }
            case .failure(let error):
                failed += 1
                if json || jsonl { writeJSON(error.json, index: index, to: &out) }
                out.flush()
                FileHandle.standardError.write(Data("mlib: \(error.description)\n".utf8))
            }
        }
        if json { out.write(paths.isEmpty ? "]\n" : "\n]\n") }
        out.flush()
        if failed > 0 { throw ExitCode(ExitStatus.partialFailure) }
    }

    private func writeJSON(_ value: JSONValue, index: Int, to out: inout StandardOutput) {
        if json { out.write(index == 0 ? "\n" : ",\n") }
        out.write(value.serialized(pretty: json))
        if jsonl { out.write("\n") }
    }

    /// The file arguments as the exact bytes the kernel passed: a non-UTF-8 name must reach open() intact,
    /// and Swift's String arguments would have repaired it.
    private func rawArgumentPaths() -> [MediaPath] {
        let raw = RawArguments.all
        // ArgumentParser has already validated; the positional files are the raw args that match, in order.
        var result: [MediaPath] = []
        var cursor = raw.startIndex
        for file in files {
            if let i = raw[cursor...].firstIndex(where: { MediaPath(bytes: $0).string == file }) {
                result.append(MediaPath(bytes: raw[i]))
                cursor = raw.index(after: i)
            } else {
                result.append(MediaPath(file))
            }
        }
        return result
    }
}
