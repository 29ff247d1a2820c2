import ArgumentParser
import Foundation
import Library
import MediaIndex

/// `mlib import-userdata FORMAT FILE`: another program's plays, skips, ratings and listens into the
/// library (`Library.importUserData`; the readers, the matcher and the merge rule live in Library).
struct ImportUserData: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-userdata",
        abstract: "Import play counts, ratings, loved marks and listens from iTunes, MPD, beets, Navidrome or ListenBrainz.",
        discussion: """
            Try it with --dry-run first: it reads the file, matches its tracks and prints the report \
            without writing anything. FORMAT is one of:
              itunes        Apple Music/iTunes Library.xml (Play Count, Skip Count, Rating, Loved, Play Date UTC)
              mpd           an MPD sticker database (playCount, skipCount, lastPlayed, rating 0-10, like)
              beets         a beets library.db (mpdstats' play_count, skip_count, last_played, rating 0-1)
              navidrome     a navidrome.db (per user: play_count, play_date, rating, starred)
              listenbrainz  a ListenBrainz listens export (JSON lines or a JSON array): history rows

            Each track is matched to an item by its path (after --map; MPD's relative paths under each \
            root), else its MusicBrainz recording id, else artist + album + title with a duration within \
            2 s. Tracks that match no item, or several, are listed and left out. Counts become the larger \
            of the library's and the file's, the last played date the later, a rating is set only where \
            there is none, loved/starred becomes a star, and a listen is added unless the user has one \
            of the same item within a second: importing a file twice changes nothing the second time. \
            The whole file is written in one transaction, or nothing of it. The values become those of \
            --user (default: the library's owner); a Navidrome database's users are this library's \
            accounts of the same name, or as --user-map says. Scales and sources: IMPORTING in mlib(1).

            Examples:
              mlib import-userdata itunes ~/Library.xml --dry-run --map /Users/me/Music=/srv/music
              mlib import-userdata mpd /var/lib/mpd/sticker.sql
              mlib import-userdata navidrome navidrome.db --user-map admin=alice --user-map guest=
              mlib import-userdata listenbrainz listens.jsonl --user bob

            \(ExitStatus.help(one: "the file held tracks but none matched an item, or it could not be read (malformed: nothing imported)"))
            """)

    @Argument(help: ArgumentHelp("itunes, mpd, beets, navidrome or listenbrainz.", valueName: "format"))
    var format: String

    @Argument(help: ArgumentHelp("The file to import.", valueName: "file"), completion: .file())
    var file: String

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .long, help: "Match and report; write nothing.")
    var dryRun = false

    @Option(name: .long, help: ArgumentHelp("Rewrite a path prefix of the file's (repeatable; the longest FROM wins).", valueName: "FROM=TO"))
    var map: [String] = []

    @Option(name: .long, help: ArgumentHelp("A user of the file (Navidrome) as a user of this library; TO empty leaves them out, - is the owner (repeatable).", valueName: "THEIRS=OURS"))
    var userMap: [String] = []

    @Flag(name: .long, help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        if UserDataImportFormat(rawValue: format) == nil {
            throw ValidationError("FORMAT: \"\(format)\" is none of \(UserDataImportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for argument in map where UserDataMatcher.PathMap(argument: argument) == nil {
            throw ValidationError("--map: \"\(argument)\" is not FROM=TO")
        }
        // A Navidrome database names whose each value is: --user would be silently ignored.
        if format == UserDataImportFormat.navidrome.rawValue, libraryOptions.user != nil {
            throw ValidationError("--user: a Navidrome database names its own users; map them with --user-map THEIRS=OURS")
        }
        for argument in userMap where !argument.contains("=") || argument.hasPrefix("=") {
            throw ValidationError("--user-map: \"\(argument)\" is not THEIRS=OURS")
        }
    }

    func run() async throws {
        let library = try libraryOptions.library()
        var users: [String: String] = [:]
        for argument in userMap {
            let eq = argument.firstIndex(of: "=")!
            users[String(argument[..<eq])] = String(argument[argument.index(after: eq)...])
        }
        let options = UserDataImportOptions(maps: map.compactMap(UserDataMatcher.PathMap.init(argument:)), user: libraryOptions.userName,
                                            userMap: users, dryRun: dryRun)
        let report = try library.importUserData(UserDataImportFormat(rawValue: format)!, file: file, options: options)
        if json {
            try JSONOutput.write(report)
        } else {
            var out = StandardOutput()
            for line in Self.lines(report) { out.write(line + "\n") }
            out.flush()
        }
        if report.records > 0 && report.matched == 0 { throw ExitCode(ExitStatus.partialFailure) }
    }

    /// The report as text: what was read and matched, what was written, then each track left out.
    static func lines(_ r: UserDataImportReport) -> [String] {
        var lines: [String] = []
        let by = UserDataMatcher.Method.allCases.compactMap { m in r.matchedBy[m.rawValue].map { "\($0) by \(m == .recordingID ? "recording id" : m.rawValue)" } }
        lines.append("\(r.records) tracks with values in \(r.file); \(r.matched) matched" + (by.isEmpty ? "" : " (\(by.joined(separator: ", ")))")
                     + ", \(r.unmatched.count) unmatched")
        if !r.users.isEmpty { lines.append("for: \(r.users.joined(separator: ", "))") }
        if !r.usersLeftOut.isEmpty { lines.append("left out: the file's users \(r.usersLeftOut.joined(separator: ", "))") }
        if !r.unknownUsers.isEmpty { lines.append("unknown users (map them with --user-map): \(r.unknownUsers.joined(separator: ", "))") }
        if r.dryRun {
            lines.append("dry run: nothing written")
        } else {
            lines.append("written: \(r.itemsChanged) items changed, \(r.starsAdded) stars added, \(r.listensAdded) listens added"
                         + (r.listensAlreadyThere > 0 ? " (\(r.listensAlreadyThere) already there)" : ""))
        }
        if r.lovedWithoutAccount > 0 {
            lines.append("not kept: \(r.lovedWithoutAccount) loved \(r.lovedWithoutAccount == 1 ? "mark" : "marks"): a star needs an account, "
                         + "and the owner has none (mlib user add NAME: the first account is the owner's)")
        }
        for miss in r.unmatched { lines.append("unmatched: \(miss.track) (\(miss.reason))") }
        return lines
    }
}
