import ArgumentParser
import Foundation
import Library
import MediaModel
import MediaProbe

/// `mlib lyrics FILE…|QUERY`: the lyrics a file holds, from its tags and its sidecar files (`LyricsReader`),
/// or those the library stored for the items a query selects (`Library.lyrics(ofItem:)`).
struct LyricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lyrics",
        abstract: "Print the lyrics of media files or library items: plain text, synced as LRC, or every set as JSON.",
        discussion: """
            When every argument is an existing file or a path (/…, ./…, ../…), the files are read now; \
            otherwise the arguments are \
            a query (as for mlib ls) and the lyrics are those the last scan stored for the items it \
            selects (a scan reads them, and reads a file again when a sidecar beside it is added, changed \
            or removed). mlib ls 'hasLyrics == YES', 'hasSyncedLyrics == YES' and lyricsLanguage:eng find \
            the items that have them.

            Reads the lyrics in the file's tags (ID3v2 USLT and SYLT frames with their language and \
            description; Vorbis LYRICS and UNSYNCEDLYRICS, MP4 ©lyr, APE Lyrics, ASF WM/Lyrics, where LRC \
            text is read as synced) and in sidecar files beside it with the same stem (.elrc, .lrc, .txt; \
            UTF-8, UTF-16 or UTF-32 with a byte order mark, else Windows-1252). A sidecar's [offset:] is \
            applied (a positive offset shows the lines sooner).

            Without --json one set is printed: of those in --language, the first synced one by source \
            (sidecar .elrc, .lrc, .txt, then SYLT, USLT, other tags), else the first plain one (USLT, \
            other tags, .txt). --lrc prints it as LRC with millisecond times (enhanced LRC's word times \
            kept); --json prints every set, with line start times in ms. What could not be read (a sidecar \
            over the 1 MiB cap, a FIFO, a symbolic link out of the folder, lines out of order) is one \
            line each on standard error.

            Examples:
              mlib lyrics song.flac
              mlib lyrics --lrc --language eng song.flac
              mlib lyrics --json song.flac
              mlib lyrics --lrc title:Heartbeats

            \(ExitStatus.help(one: "a file or item has no lyrics (in that language), or none synced for --lrc"))
            """)

    @Flag(name: .long, help: "Print the synced lyrics as LRC ([mm:ss.xxx] per line).")
    var lrc = false

    @Flag(name: .long, help: "Print every set of lyrics as JSON: an array with one object per file.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Only lyrics in this language (ISO 639-2, as the tag says: eng, deu).", valueName: "code"))
    var language: String?

    @OptionGroup var libraryOptions: LibraryOptions

    @Argument(help: ArgumentHelp("Media files, or a query (as for mlib ls).", valueName: "file|query"), completion: .file())
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one file or a query.") }
        if lrc && json { throw ValidationError("--lrc and --json cannot be combined.") }
    }

    /// What one file or item gives: its label (the path), its sets, what could not be read.
    struct Entry {
        var path: MediaPath
        var report: LyricsReport
    }

    /// Files when every argument is one on disk or is written as a path (/…, ./…, ../…: a missing file is
    /// then said as such), else the items of a query (a query term rarely is either).
    func entries() throws -> [Entry] {
        let paths = RawArguments.paths(files)
        let pathLike = paths.allSatisfy { path in
            path.existsOnDisk || ["/", "./", "../"].contains { path.bytes.starts(with: Array($0.utf8)) }
        }
        if pathLike { return paths.map { Entry(path: $0, report: LyricsReader.read($0)) } }
        let library = try libraryOptions.library()
        let filter = try library.predicate(try QueryInput.predicate(files), for: libraryOptions.userName)
        let items = try library.items(MediaQuery(filter: filter, sort: [SortDescriptor(.path)]))
        guard !items.isEmpty else { throw CLIError.nothingMatches("no item matches") }
        return try items.map { Entry(path: $0.path, report: LyricsReport(lyrics: try library.lyrics(ofItem: $0.persistentID))) }
    }

    func run() async throws {
        var out = StandardOutput()
        var failed = 0
        var objects: [JSONValue] = []
        let entries = try entries()
        for (n, entry) in entries.enumerated() {
            let (path, report) = (entry.path, entry.report)
            for warning in report.warnings { printError(warning.hasPrefix(path.string) ? warning : "\(path.string): \(warning)") }
            let sets = language.map { l in report.lyrics.filter { $0.language == l.lowercased() } } ?? report.lyrics
            if json {
                objects.append(.object([("path", path.json), ("lyrics", .array(sets.map(\.json))),
                                        ("warnings", .array(report.warnings.map(JSONValue.string)))]))
                if sets.isEmpty { failed += 1 }
                continue
            }
            let chosen = LyricsReader.preferred(report.lyrics, language: language)
            guard let chosen, !lrc || chosen.isSynced else {
                failed += 1
                // A file that could not be opened has said why in one line already.
                if report.fileError == nil || chosen != nil {
                    printError("\(path.string): no \(lrc ? "synced " : "")lyrics" + (language.map { " in '\($0)'" } ?? ""))
                }
                continue
            }
            if entries.count > 1 { out.write((n > 0 ? "\n" : "") + "==> \(path.string) <==\n") }
            let body = lrc ? chosen.lrc : chosen.text
            out.write(body.hasSuffix("\n") || body.isEmpty ? body : body + "\n")
        }
        if json { out.write(JSONValue.array(objects).serialized(pretty: true) + "\n") }
        out.flush()
        if failed > 0 { throw ExitCode(ExitStatus.partialFailure) }
    }
}
