import ArgumentParser
import EarlySignals
import Foundation
import Library
import MediaIndex
import MediaModel
import MediaProbe
import TagWriting

/// `mlib tag QUERY FIELD=VALUE… [FIELD+=VALUE] [FIELD!]`: writes tags to the files (beets' `modify` forms),
/// safely (TagWriting), and keeps the library's items in step. `--files PATH…` edits files without a library.
struct Tag: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Write tags to the files of the items matching a query (or to --files), safely.",
        discussion: """
            Arguments of the forms FIELD=VALUE (set; an empty VALUE removes), FIELD+=VALUE (add a value to a \
            multi-valued field) and FIELD! (remove) are the changes; the others are the query, as for mlib ls \
            (or, with --files, the files). FIELD is a tag field of mlib fields (title, artist, album, \
            albumArtist, genre, composer, grouping, comments, lyrics, track, trackCount, disc, discCount, \
            compilation, date, year, bpm, the MusicBrainz IDs, the ReplayGain values) or any other tag key \
            in upper case (MOOD, LABEL, ISRC…), written as the format spells it (see mlib(1), TAGS, Fields). lyrics=@FILE writes FILE's text \
            (an .lrc is kept as LRC text, which mlib lyrics reads as synced; UTF-16 with a byte order mark \
            and Windows-1252 files are converted).

            mlib shows old → new per file (a summary for many), asks before writing more than 5 files on a \
            terminal, then writes each file so that it is always wholly old or wholly new: in place behind an \
            undo journal when the new tag fits, else as a copy renamed over the file. A read-only file, a file \
            changed meanwhile and a full disk are refused with the file untouched. After each write mlib reads \
            the file again and compares every other field, the pictures and the audio packets with what it \
            read before; a write that changed more than asked is undone (or its copy dropped) and reported, \
            the file as it was (--force writes it anyway). The written files' items \
            are read again at once (ids, play counts, ratings and playlist entries kept). Ctrl-C stops between \
            groups of files: the group being written is finished, the files not begun stay as they were, and \
            mlib says how many of each.

            Examples:
              mlib tag artist:Bjork artist=Björk
              mlib tag album:Homogenic genre+=Electronic --dry-run
              mlib tag --files song.flac title='Jóga' MOOD=calm comments!
              mlib tag album:Homogenic --write-ratings
              mlib tag --files song.flac lyrics=@song.lrc

            \(ExitStatus.help(one: "a file could not be written or its write was undone by the check (the others were written), or nothing matches", interruptible: true))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .long, help: "The arguments other than changes are files to edit; no library is opened.")
    var files = false

    @Option(name: .long, help: ArgumentHelp("Embed this image (JPEG or PNG) as the front cover, replacing the pictures.", valueName: "image"))
    var picture: String?

    @Flag(name: .long, help: "Remove every embedded picture.")
    var removePictures = false

    @Flag(name: .long, help: "Write each item's rating (given in mlib: mlib set rating=N) into its file: ID3v2 POPM, FMPS_RATING, MP4 rate, ASF WM/SharedUserRating (see mlib(1), TAGS, Ratings). Unrated items' files are left as they are.")
    var writeRatings = false

    @Flag(name: .long, help: "Change every item of the library (instead of giving a query).")
    var all = false

    @Flag(name: [.short, .long], help: "Write without asking.")
    var yes = false

    @Flag(name: .long, help: "Only show what would change.")
    var dryRun = false

    @Flag(name: .long, help: "Print a JSON report: per file the changes, the outcome and the bytes written.")
    var json = false

    @Flag(name: .long, help: "Write even where the check after each write finds that more changed than asked (other fields, pictures, the audio packets): only for a difference you have read in mlib's refusal and accept, such as a damaged file's length that the rewrite corrects (see mlib(1), TAGS, The check).")
    var force = false

    @Argument(help: ArgumentHelp("Changes (FIELD=VALUE, FIELD+=VALUE, FIELD!) and the query (or, with --files, the files).",
                                 valueName: "change-or-query"), completion: Completions.queryTerms)
    var arguments: [String] = []

    /// `lyrics=@FILE`: the lyrics are FILE's text (`LyricsReader.textFile`: an .lrc, .elrc or .txt in any of
    /// the encodings a sidecar may have); LRC text is written as it is, and is read back as synced lyrics.
    static func readingLyricsFile(_ change: TagChange) throws -> TagChange {
        guard change.key == "LYRICS", case .set(let value) = change.operation, value.hasPrefix("@"), value.count > 1 else { return change }
        let path = MediaPath(String(value.dropFirst()))
        do {
            return TagChange(field: change.field, key: change.key, operation: .set(try LyricsReader.textFile(path)))
        } catch {
            throw CLIError.input("lyrics=@\(path.string): \(error)")
        }
    }

    /// How many files may change before mlib asks on a terminal.
    static let handful = 5

    func split() -> (changes: [TagChange], rest: [String]) {
        var changes: [TagChange] = []
        var rest: [String] = []
        for argument in arguments {
            if let change = TagChange(argument: argument) { changes.append(change) } else { rest.append(argument) }
        }
        return (changes, rest)
    }

    func validate() throws {
        let (changes, rest) = split()
        if changes.isEmpty && picture == nil && !removePictures && !writeRatings {
            throw ValidationError("give at least one change: FIELD=VALUE, FIELD+=VALUE or FIELD! (FIELD: \(TagFieldMapping.fieldNames.prefix(8).joined(separator: ", "))…, or a KEY in upper case), or --write-ratings")
        }
        if files && writeRatings { throw ValidationError("--write-ratings writes the library's ratings; it does not go with --files") }
        if files && rest.isEmpty { throw ValidationError("give the files to edit after --files") }
        if files && all { throw ValidationError("--files and --all do not go together") }
        if !files && rest.isEmpty && !all { throw ValidationError("give a query, or --all to change every item") }
        if !files && !rest.isEmpty && all { throw ValidationError("--all takes no query") }
        if picture != nil && removePictures { throw ValidationError("--picture already replaces the pictures; leave out --remove-pictures") }
    }

    func run() async throws {
        let (given, rest) = split()
        let changes = try given.map(Self.readingLyricsFile)
        var edit = TagEdit(changes: changes, removePictures: removePictures)
        if let picture {
            guard let data = FileManager.default.contents(atPath: picture), let mime = TagEdit.imageType(Array(data)) else {
                throw CLIError.input("\(picture): not a JPEG, PNG or GIF image")
            }
            edit.picture = (Array(data), mime)
        }
        let library = files ? nil : try libraryOptions.library()
        // Files by their bytes, from the command line or the library: a name that is not UTF-8 is written too.
        let items = try files ? RawArguments.paths(rest).map { (path: Self.absolute($0), rating: Int64?.none) }
            : Self.items(library!, terms: all ? [] : rest)
        if items.isEmpty { throw CLIError.nothingMatches("no items match; nothing changed") }
        let paths = items.map(\.path)
        // Each file's edit: the same changes, and with --write-ratings its item's rating.
        var edits: [MediaPath: TagEdit] = [:]
        for item in items {
            var own = edit
            if writeRatings, let rating = item.rating { own.rating = Int(rating) }
            edits[item.path] = own
        }

        let writer = TagWriter(force: force)
        let mayAsk = !yes && isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
        var reports: [TagFileReport]
        if dryRun || mayAsk {
            // Shown before anything is written: each file read once for the plan, again to write it.
            // The dry run also renders each edit and runs the check on a temporary copy (`TagWriter.plan`).
            let plan = paths.map { dryRun ? writer.plan($0, edits[$0]!) : writer.edit($0, edits[$0]!, write: false) }
            let changing = plan.filter { $0.outcome == .planned }
            let ends = dryRun || changing.isEmpty
            if !json || dryRun { TagReportText.show(plan, json: json, failures: ends) }
            if ends {
                if json && !dryRun { TagReportText.printJSON(plan) }
                if plan.contains(where: { $0.outcome == .failed }) { throw ExitCode(ExitStatus.partialFailure) }
                return
            }
            if changing.count > Self.handful {
                FileHandle.standardError.write(Data("Write \(changing.count) files? [y/N] ".utf8))
                let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
                guard answer == "y" || answer == "yes" else {
                    printError("nothing written")
                    return
                }
            }
            reports = plan.filter { $0.outcome != .planned }
                + (try await write(changing.map { (file: $0.file, edit: edits[$0.file]!) }, library, writer))
        } else {
            // Nobody to ask: each file read once, and what changed shown as it was written.
            reports = try await write(paths.map { (file: $0, edit: edits[$0]!) }, library, writer)
            if !json { TagReportText.show(reports, json: false, failures: false) }
        }
        reports.sort { $0.file < $1.file }
        if json { TagReportText.printJSON(reports) } else { TagReportText.summary(reports) }
        let notWritten = reports.filter { $0.outcome == .notWritten }.count
        if mlib_stop_requested() != 0 {
            let written = reports.filter { $0.outcome == .inPlace || $0.outcome == .rewritten }.count
            printError("interrupted: \(written) file\(written == 1 ? "" : "s") written, \(notWritten) not begun and unchanged; "
                       + "every file is wholly old or wholly new" + (library == nil ? "" : ", and the library has the written ones"))
            throw ExitCode(ExitStatus.interrupted)
        }
        if reports.contains(where: { $0.outcome == .failed }) { throw ExitCode(ExitStatus.partialFailure) }
    }

    /// Writes `jobs` (`Library.writeTags`: written, then read again into the library; or the files alone
    /// with --files). From here on Ctrl-C (or SIGTERM) stops between groups of files instead of killing
    /// mlib in the middle of one: it exited 130 without a word and left hidden `.NAME.mlib-tag-*` copies
    /// for the next command to remove.
    private func write(_ jobs: [(file: MediaPath, edit: TagEdit)], _ library: Library?, _ writer: TagWriter) async throws -> [TagFileReport] {
        StopFlag().watch()
        let stop = { mlib_stop_requested() != 0 }
        if let library { return try await library.writeTags(jobs, writer: writer, shouldStop: stop) }
        return writer.edit(jobs, shouldStop: stop)
    }

    /// The files of the items matching `terms` (every item when empty), in path order, with the rating given
    /// in mlib (not the one read from the file's tags).
    static func items(_ library: Library, terms: [String]) throws -> [(path: MediaPath, rating: Int64?)] {
        let filter = terms.isEmpty ? Predicate.all : try QueryInput.predicate(terms)
        let items = try library.store.items(MediaQuery(filter: filter))
        // Another host's item is its file, not the one at that path here.
        try library.requireThisHost(items, doing: "write tags")
        return items.map { ($0.path, $0.userRating) }.sorted { $0.path < $1.path }
    }

    static func absolute(_ path: MediaPath) -> MediaPath {
        if path.bytes.first == UInt8(ascii: "/") { return path }
        return MediaPath(FileManager.default.currentDirectoryPath).appending(path)
    }
}
