import ArgumentParser
import Foundation
import MediaModel
import MediaProbe
import MediaScanner

struct Info: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show metadata of media files (tags, container, streams, cover art).",
        discussion: """
            Reads each file with FFmpeg and TagLib, in parallel, and prints a summary per file. A directory \
            stands for the media files below it, as mlib scan finds them, in path order; - reads standard \
            input (mlib info - < song.flac, curl … | mlib info -). With --json, \
            prints a JSON array with one object per file; with --jsonl, one object per line (see mlib(1), \
            JSON SCHEMA). Each file that cannot be read is one line on standard error.

            -f prints one line per file from a template, as mlib ls -f; --show prints the chosen keys as \
            key=value lines (with --json or --jsonl: only those keys in "item"). Keys are the property names \
            and aliases of mlib fields, and streams, pictures, chapters, tags. --chapters prints only the \
            chapters (M4B/MP4 chapter lists and chapter tracks, ID3v2 CHAP frames, Vorbis CHAPTERxxx comments, \
            Matroska chapters): index, start, end, title.

            The report and --json also list the lyrics a file holds, one set per source and language (its \
            tags and its .elrc/.lrc/.txt sidecars; see mlib lyrics).

            Examples:
              mlib info song.flac
              mlib info -f '$duration $bitrate $title' ~/Music
              mlib info --show duration,samplerate,streams song.flac
              mlib info --json --show title,artist song.flac
              mlib info --chapters book.m4b song.flac

            \(ExitStatus.help(one: "a file could not be read", library: false))
            """)

    @Flag(name: .long, help: "Print a JSON array, one object per file.")
    var json = false

    @Flag(name: .long, help: "Print one JSON object per line (JSON Lines).")
    var jsonl = false

    @Flag(name: .long, help: "Also list every raw tag (text output).")
    var tags = false

    @Flag(name: .long, help: "Only the chapters: index, start, end and title (with --json: an object per file).")
    var chapters = false

    @Option(name: [.short, .long], help: ArgumentHelp(
        "One line per file from a template, as mlib ls -f: $field or ${field:WIDTH} (see mlib fields).",
        valueName: "template"), completion: Completions.templateFields)
    var format: String?

    @Option(name: .long, help: ArgumentHelp(
        "Only these keys, comma-separated: field names or aliases (see mlib fields), streams, pictures, chapters, tags.",
        valueName: "keys"), completion: InfoSelection.completion)
    var show: String?

    @Option(name: [.customShort("j", allowingJoined: true), .long], help: "Files to read at once (default: the number of cores; -j4 or -j 4).")
    var jobs: Int?

    @Argument(help: ArgumentHelp("Media files to read; a directory stands for the media files below it, - for standard input.", valueName: "file"), completion: .file())
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one file.") }
        if json && jsonl { throw ValidationError("--json and --jsonl cannot be combined.") }
        if format != nil && (json || jsonl || show != nil || tags) {
            throw ValidationError("-f prints its template only: drop --json, --jsonl, --show and --tags.")
        }
        if chapters && (format != nil || show != nil || tags) { throw ValidationError("--chapters prints the chapters only: drop -f, --show and --tags.") }
        if show != nil && tags { throw ValidationError("--tags goes with the full report; with --show, ask for the key tags.") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    }

    func run() async throws {
        let template = try format.map { try ItemTemplate($0) }
        let show = try show.map { try InfoSelection(parsing: $0) }
        var out = StandardOutput()
        var failed = 0, written = 0
        if json { out.write("[") }
        func fail(_ error: ProbeError) {
            failed += 1
            if json || jsonl { writeJSON(error.json, first: written == 0, to: &out) }
            written += 1
            out.flush()
            FileHandle.standardError.write(Data("mlib: \(error.description)\n".utf8))
        }
        for argument in RawArguments.paths(files) {
            // "-": standard input, as ffprobe reads it; copied to a file first, because TagLib and FFmpeg's
            // demuxers (an MP4's index at its end) need to seek.
            let standardInput = argument.string == "-" ? try StandardInputFile() : nil
            defer { standardInput?.remove() }
            // A directory: the media files below it (its unreadable folders after them); anything else is
            // read as a file, so a missing path or a symlink loop gets its own error.
            let listing = argument.isDirectoryOnDisk ? MediaFileListing(under: argument) : nil
            let paths = standardInput.map { [$0.path] } ?? listing?.files ?? [argument]
            await MediaProbe.probeInOrder(paths, concurrency: jobs ?? MediaProbe.defaultConcurrency) { _, result in
                switch result {
                case .success(var probe):
                    if standardInput != nil { probe.item.path = argument }
                    if let template {
                        out.write(template.render(probe.item) + "\n")
                    } else if let show {
                        if json || jsonl { writeJSON(show.json(probe), first: written == 0, to: &out) } else {
                            out.write((written > 0 ? "\n" : "") + show.text(probe))
                        }
                    } else if chapters {
                        if json || jsonl { writeJSON(InfoChapters.json(probe), first: written == 0, to: &out) } else {
                            out.write((written > 0 ? "\n" : "") + InfoChapters.text(probe))
                        }
                    } else {
                        // The lyrics' summary as the scan stores it (hasLyrics…), beside the sets themselves.
                        let lyrics = InfoLyrics.read(probe)
                        Lyrics.summarize(lyrics.lyrics.map { ($0.isSynced, $0.language) }, into: &probe.item)
                        if json || jsonl {
                            writeJSON(InfoLyrics.adding(lyrics, to: probe.json), first: written == 0, to: &out)
                        } else {
                            out.write((written > 0 ? "\n" : "") + InfoText.render(probe, showTags: tags, lyrics: lyrics))
                        }
                    }
                    written += 1
                case .failure(let error):
                    fail(error)
                }
            }
            listing?.unreadableDirectories.forEach(fail)
        }
        if json { out.write(written == 0 ? "]\n" : "\n]\n") }
        out.flush()
        if failed > 0 { throw ExitCode(ExitStatus.partialFailure) }
    }

    private func writeJSON(_ value: JSONValue, first: Bool, to out: inout StandardOutput) {
        if json { out.write(first ? "\n" : ",\n") }
        out.write(value.serialized(pretty: json))
        if jsonl { out.write("\n") }
    }
}
