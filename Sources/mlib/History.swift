import ArgumentParser
import Foundation
import Library
import MediaIndex
import MediaModel

/// `mlib history`: the listening history, newest first (`Library.history`, `ListeningHistoryStore`).
struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the listening history: every play and skip, newest first.",
        discussion: """
            One line per play or skip: when (local time), play or skip, the front that recorded it (play: \
            mlib play; mpd: the MPD server's player; subsonic: a Subsonic client's scrobble), the user (- for \
            the library's owner when no account was named), and the item. Every user's listens, unless \
            --user or MLIB_USER names one (the owner's: theirs and those without a name). Plays and \
            skips are recorded by the one rule of PLAY in mlib(1), with the item's playCount, \
            skipCount and lastPlayedDate in the same transaction. An item removed from the library keeps its \
            history, shown as "(removed item ID)".

            --since takes 7d (or -7d; units h, d, w, m = 30 days, y = 365 days) or a day, month or year \
            (2026-11-01, 2026-11, 2026: from its start, local time).

            --export writes the plays as ListenBrainz listens, one JSON object per line (the "listen" \
            payload of ListenBrainz's API documentation, https://listenbrainz.readthedocs.io/en/latest/\
            users/json.html): listened_at, track_metadata.artist_name, track_name, release_name and \
            additional_info (media_player, submission_client, mlib_item_id, mlib_heard). Plays of items \
            without artist or title cannot be listens: they are left out and counted on standard error.

            Examples:
              mlib history --limit 20
              mlib history --since 7d --json
              mlib history --since 2026-01-01 --export > listens.jsonl

            \(ExitStatus.help(one: nil))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(name: .long, help: ArgumentHelp("Only listens from then on: 7d, 12h, 2w, or a date 2026-11-01.", valueName: "when"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("At most this many listens (the newest).", valueName: "n"))
    var limit: Int?

    @Option(name: .long, help: ArgumentHelp("Only plays or only skips.", valueName: "play|skip"))
    var kind: String?

    @Flag(name: .long, help: "Print a JSON array of {itemID, kind, when, heard, front, user, title, artist, album, path}.")
    var json = false

    @Flag(name: .long, help: "Print the plays as ListenBrainz listens, one JSON object per line.")
    var export = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if let since, HistoryPeriod.start(since) == nil {
            throw ValidationError("--since: \"\(since)\" is neither a span (7d, 12h, 2w, 3m, 1y) nor a date (2026-11-01, 2026-11, 2026)")
        }
        if let kind, Listen.Kind(rawValue: kind) == nil { throw ValidationError("--kind: \"\(kind)\" is neither play nor skip") }
        if json && export { throw ValidationError("--json and --export: choose one") }
    }

    func run() async throws {
        let library = try libraryOptions.library()
        // --user (or MLIB_USER) names whose listens; without either, everyone's. The owner's are the rows
        // without a name (the CLI's and the MPD server's) and those named by the owner's account.
        let user: HistoryQuery.UserFilter
        if let name = libraryOptions.userName {
            user = try libraryOptions.dataUser(library) == nil ? .ownerAccount(name) : .named(name)
        } else {
            user = .everyone
        }
        let query = HistoryQuery(since: since.flatMap { HistoryPeriod.start($0) }, user: user,
                                 kind: export ? .play : kind.flatMap(Listen.Kind.init(rawValue:)), limit: limit)
        var out = StandardOutput()
        if json {
            var entries: [Entry] = []
            try library.store.forEachHistoryEntry(query) { entries.append(Entry($0)) }
            try JSONOutput.write(entries)
            return
        }
        var leftOut = 0
        let time = DateFormatter()
        time.locale = Locale(identifier: "en_US_POSIX")
        time.dateFormat = "yyyy-MM-dd HH:mm:ss"
        try library.store.forEachHistoryEntry(query) { entry in
            if export {
                if let line = ListenBrainzExport.line(for: entry) { out.write(line + "\n") } else { leftOut += 1 }
                return
            }
            let what = entry.title.map { title in (entry.artist.map { $0 + " – " } ?? "") + title }
                ?? entry.path?.string ?? "(removed item \(entry.listen.itemID))"
            out.write([time.string(from: entry.listen.date), entry.listen.kind.rawValue, entry.listen.front.rawValue,
                       entry.listen.user ?? "-", what].joined(separator: "  ") + "\n")
        }
        out.flush()
        if leftOut > 0 { printError("\(leftOut) play\(leftOut == 1 ? "" : "s") left out: no artist or title (untagged, or the item was removed)") }
    }

    /// One listen of `--json`: every key present, null where unknown (a removed item has no title or path).
    struct Entry: Encodable {
        var entry: HistoryEntry
        init(_ entry: HistoryEntry) { self.entry = entry }

        enum Key: String, CodingKey { case itemID, kind, when, heard, front, user, title, artist, album, path }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(entry.listen.itemID, forKey: .itemID)
            try c.encode(entry.listen.kind.rawValue, forKey: .kind)
            try c.encode(entry.listen.date.formatted(.iso8601), forKey: .when)
            try c.encode(entry.listen.heard, forKey: .heard)
            try c.encode(entry.listen.front.rawValue, forKey: .front)
            try c.encode(entry.listen.user, forKey: .user)
            try c.encode(entry.title, forKey: .title)
            try c.encode(entry.artist, forKey: .artist)
            try c.encode(entry.albumTitle, forKey: .album)
            try c.encode(entry.path, forKey: .path)
        }
    }
}
