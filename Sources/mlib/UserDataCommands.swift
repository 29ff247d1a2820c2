import ArgumentParser
import Foundation
import Library
import MediaIndex
import MediaModel
import TagWriting

/// `mlib rate QUERY... N` (or `--clear`): the rating of every matching item, as MPMediaItem's 0–5.
struct Rate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Rate the items matching a query (0 to 5), or clear their rating.",
        discussion: """
            The last argument is the rating unless --clear is given; the others are the query, as for \
            mlib ls. Ratings are user data: rescans and moves keep them. A rating in the file's tags \
            (tagRating) shows until you rate the item, and again after --clear. \
            `mlib ls -f '$rating $title'` shows them; `rating >= 4` selects by them.

            Examples:
              mlib rate artist:Björk album:Homogenic 5
              mlib rate 'title == "Joga"' --clear

            \(ExitStatus.help(one: "nothing matches the query"))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .long, help: "Clear the rating instead of setting one (the file's tag rating, if any, shows again).")
    var clear = false

    @Argument(help: ArgumentHelp("The query, then the rating (0–5) unless --clear.", valueName: "query-and-rating"),
              completion: Completions.queryTerms)
    var arguments: [String]

    func validate() throws {
        if clear { return }
        guard let last = arguments.last, let rating = Int(last), (0...5).contains(rating) else {
            throw ValidationError("the last argument is the rating, 0–5 (or give --clear)")
        }
        if arguments.count < 2 { throw ValidationError("give a query before the rating (mlib rate QUERY N)") }
    }

    func run() async throws {
        let terms = clear ? arguments : Array(arguments.dropLast())
        let rating = clear ? nil : Int64(arguments.last!)
        let changed = try UserDataEdit.apply(libraryOptions, terms: terms) { library, ids in
            try library.setUserData(.rating, to: rating, ids: ids, user: libraryOptions.userName)
        }
        let items = "\(changed) item\(changed == 1 ? "" : "s")"
        print(rating.map { "rated \(items): \($0) star\($0 == 1 ? "" : "s")" } ?? "cleared the rating of \(items)")
    }
}

/// `mlib set FIELD=VALUE... QUERY...`: user data (play and skip counts, rating, last played) of the
/// matching items, like beets' `beet modify` for the fields the library keeps (tags are the files').
struct SetUserData: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set or reset user data (playCount, skipCount, rating, lastPlayedDate) of the items matching a query.",
        discussion: """
            Leading FIELD=VALUE arguments are the changes, the rest is the query (as for mlib ls; required: \
            use --all for every item). FIELD is playCount (plays), skipCount (skips), rating (0–5) or \
            lastPlayedDate (lastplayed: a date as a query takes it, 2024-01-01, 2024-01-01T10:30 local \
            time, -7d, or seconds since 1970); an empty VALUE clears it (counts become 0). Tags (title, \
            artist, …) belong to the files: mlib tag writes them.

            Examples:
              mlib set plays=0 skips=0 artist:Björk
              mlib set rating= lastplayed= --all

            \(ExitStatus.help(one: "nothing matches the query"))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .long, help: "Change every item (instead of giving a query).")
    var all = false

    @Argument(help: ArgumentHelp("FIELD=VALUE changes, then the query.", valueName: "change-or-query"),
              completion: Completions.queryTerms)
    var arguments: [String]

    /// The leading FIELD=VALUE arguments, parsed.
    func changes() throws -> (changes: [(MediaProperty, Int64?)], query: [String]) {
        var changes: [(MediaProperty, Int64?)] = []
        var rest = arguments[...]
        while let first = rest.first, let eq = first.firstIndex(of: "="),
              let property = MediaProperty(name: String(first[..<eq])), UserDataEdits.editable.contains(property) {
            let text = String(first[first.index(after: eq)...])
            changes.append((property, try Self.value(text, of: property, in: first)))
            rest = rest.dropFirst()
        }
        return (changes, Array(rest))
    }

    /// A count or rating is a whole number; lastPlayedDate takes what a query takes for a date
    /// (`QueryLiterals.timestamp`: 2024-01-01, 2024-01-01T10:30, -7d, or seconds since 1970); empty clears.
    static func value(_ text: String, of property: MediaProperty, in argument: String) throws -> Int64? {
        if text.isEmpty { return nil }
        if property.spec.type == .timestamp {
            guard let seconds = QueryLiterals.timestamp(text), seconds.isFinite, abs(seconds) < 9e15 else {
                throw ValidationError("\(argument): the value is a date (2024-01-01, 2024-01-01T10:30, -7d) or seconds since 1970, or empty to clear")
            }
            return Int64(seconds.rounded(.down))
        }
        guard let number = Int64(text) else { throw ValidationError("\(argument): the value is a whole number, or empty to clear") }
        return number
    }

    func validate() throws {
        let (changes, query) = try changes()
        if changes.isEmpty {
            // A tag field (title=…) belongs to the files: mlib tag writes it.
            if let tag = query.first(where: { TagChange(argument: $0) != nil }) {
                throw ValidationError("\(tag): tags are the files'; write them with mlib tag (mlib tag QUERY \(tag)). mlib set changes user data: playCount, skipCount, rating, lastPlayedDate")
            }
            throw ValidationError("give at least one FIELD=VALUE (playCount, skipCount, rating, lastPlayedDate)")
        }
        if query.isEmpty && !all { throw ValidationError("give a query, or --all to change every item") }
        if !query.isEmpty && all { throw ValidationError("--all takes no query") }
    }

    func run() async throws {
        let (changes, query) = try changes()
        var changed = 0
        _ = try UserDataEdit.apply(libraryOptions, terms: query) { library, ids in
            for (property, value) in changes { changed = try library.setUserData(property, to: value, ids: ids, user: libraryOptions.userName) }
            return changed
        }
        let what = changes.map { "\($0.0.rawValue)=\($0.1.map(String.init) ?? "")" }.joined(separator: " ")
        print("set \(what) on \(changed) item\(changed == 1 ? "" : "s")")
    }
}

/// The items a user-data edit applies to, and the edit.
enum UserDataEdit {
    /// The edit is `options`' user's (--user, MLIB_USER; else the owner's): an unknown user is refused
    /// before the query runs.
    static func apply(_ options: LibraryOptions, terms: [String], _ body: (Library, [Int64]) throws -> Int) throws -> Int {
        let filter = try QueryInput.predicate(terms)
        let library = try options.library()
        let ids = try library.store.itemIDs(MediaQuery(filter: try library.predicate(filter, for: options.userName)))
        if ids.isEmpty { throw CLIError.nothingMatches("no items match; nothing changed") }
        return try body(library, ids)
    }
}
