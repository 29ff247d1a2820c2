import Foundation
import MediaIndex
import MediaModel

/// How `Library.importUserData` imports: the path rewrites, whose values the file's become, how the
/// users of a file that names its own (Navidrome) map to this library's, and whether to write at all.
public struct UserDataImportOptions: Sendable {
    /// `--map FROM=TO`, the longest FROM first.
    public var maps: [UserDataMatcher.PathMap]
    /// Whose values a file without users of its own brings (nil: the library's owner).
    public var user: String?
    /// A file's user → this library's account; "" leaves that user out, "-" is the library's owner. A user
    /// not here is the account of the same name.
    public var userMap: [String: String]
    /// Match and report, write nothing.
    public var dryRun: Bool

    public init(maps: [UserDataMatcher.PathMap] = [], user: String? = nil, userMap: [String: String] = [:], dryRun: Bool = false) {
        self.maps = maps
        self.user = user
        self.userMap = userMap
        self.dryRun = dryRun
    }
}

/// What an import read, matched and changed (`mlib import-userdata`, its `--json`).
public struct UserDataImportReport: Sendable, Codable, Hashable {
    public struct Unmatched: Sendable, Codable, Hashable {
        /// The track as the file names it (its path, else artist – album – title).
        public var track: String
        /// "no item" or "N items fit" (ambiguous: nothing is guessed).
        public var reason: String
        public var user: String?
    }

    public var format: UserDataImportFormat
    public var file: String
    public var dryRun: Bool
    /// Tracks (or listens) with values that the file holds.
    public var records = 0
    public var matched = 0
    /// How many were matched by path, by recording id, by tags.
    public var matchedBy: [String: Int] = [:]
    public var unmatched: [Unmatched] = []
    /// The library's users whose values the file brings ("(owner)" for the owner without an account).
    public var users: [String] = []
    /// The file's users left out by `--user-map THEIRS=`.
    public var usersLeftOut: [String] = []
    /// The file's users that are no account here (a dry run lists them; an import stops on them).
    public var unknownUsers: [String] = []
    /// What was written (0 in a dry run).
    public var itemsChanged = 0
    public var listensAdded = 0
    public var listensAlreadyThere = 0
    public var starsAdded = 0
    /// Loved or starred tracks of the owner that cannot become stars: a star is an account's, and this
    /// library's owner has none (`mlib user add` makes the first account the owner). In a dry run too.
    public var lovedWithoutAccount = 0
}

extension UserDataImportFormat {
    /// The reader of this format for `file`.
    public func reader(for file: String) -> any UserDataReader {
        switch self {
        case .itunes: ITunesLibraryReader(file: file)
        case .mpd: MPDStickerReader(file: file)
        case .beets: BeetsLibraryReader(file: file)
        case .navidrome: NavidromeReader(file: file)
        case .listenbrainz: ListenBrainzReader(file: file)
        }
    }
}

extension Library {
    /// Imports another program's plays, skips, ratings, loved/starred marks and listens from `file`: reads
    /// it as `format` (streamed), matches each track to an item (`UserDataMatcher`), and writes all of it in
    /// one transaction by `UserDataImportStore`'s merge rule (the larger count, the later date, a rating
    /// only where there is none, a listen once), so importing the same file again changes nothing. A file
    /// that does not read whole (malformed, unreadable) writes nothing; so does one naming users this
    /// library does not have (`UserDataImportError.unknownUsers`).
    public func importUserData(_ format: UserDataImportFormat, file: String, options: UserDataImportOptions = UserDataImportOptions()) throws -> UserDataImportReport {
        let defaultUser = options.user
        if let defaultUser { _ = try dataUser(defaultUser) }   // an unknown --user is refused first
        let matcher = try UserDataMatcher(store: store, maps: options.maps)
        var report = UserDataImportReport(format: format, file: file, dryRun: options.dryRun)
        // Whose values, by the file's user: the account (nil: the owner), or left out.
        var targets: [String: String??] = [:]
        var unknown: Set<String> = [], leftOut: Set<String> = []
        var batches: [String?: (values: [Int64: ImportedUserValues], listens: [Listen])] = [:]
        let now = Date()

        try format.reader(for: file).read { record in
            let user: String?
            if let theirs = record.sourceUser {
                if targets[theirs] == nil { targets[theirs] = try target(of: theirs, options.userMap) }
                switch targets[theirs]! {
                case .none: leftOut.insert(theirs); unknown.insert(theirs); return
                case .some(.some("")): leftOut.insert(theirs); return
                case .some(let ours): user = ours
                }
            } else {
                user = defaultUser
            }
            report.records += 1
            switch matcher.match(record.track) {
            case .matched(let id, let method):
                report.matched += 1
                report.matchedBy[method.rawValue, default: 0] += 1
                if let when = record.listenedAt {
                    batches[user, default: ([:], [])].listens.append(Listen(itemID: id, kind: .play, date: when, front: .import, user: user))
                } else {
                    let new = ImportedUserValues(itemID: id, rating: record.rating.flatMap { $0 > 0 ? $0 : nil }, playCount: record.playCount,
                                                 skipCount: record.skipCount, lastPlayed: record.lastPlayed, starred: record.loved ? now : nil)
                    batches[user, default: ([:], [])].values[id] = Self.merged(batches[user]?.values[id], new)
                }
            case .unmatched:
                report.unmatched.append(.init(track: record.track.label, reason: "no item", user: user))
            case .ambiguous(let count):
                report.unmatched.append(.init(track: record.track.label, reason: "\(count) items fit", user: user))
            }
        }
        report.unknownUsers = unknown.sorted()
        report.usersLeftOut = leftOut.subtracting(unknown).sorted()
        report.users = batches.keys.map { $0 ?? "(owner)" }.sorted()
        if !unknown.isEmpty && !options.dryRun { throw UserDataImportError.unknownUsers(unknown.sorted()) }
        if let owners = batches[String?.none], try !store.users().contains(where: \.isOwner) {
            report.lovedWithoutAccount = owners.values.values.filter { $0.starred != nil }.count
        }
        guard !options.dryRun else { return report }
        let outcome = try store.importUserData(batches.map { user, batch in
            UserDataImportBatch(user: user, values: batch.values.keys.sorted().map { batch.values[$0]! }, listens: batch.listens)
        })
        report.itemsChanged = outcome.itemsChanged
        report.listensAdded = outcome.listensAdded
        report.listensAlreadyThere = outcome.listensAlreadyThere
        report.starsAdded = outcome.starsAdded
        return report
    }

    /// The account a file's user `theirs` maps to: `.some(name)`, `.some(nil)` for the owner, `.some("")`
    /// left out, `.none` when it is no account here.
    private func target(of theirs: String, _ userMap: [String: String]) throws -> String?? {
        let ours = userMap[theirs] ?? theirs
        if ours.isEmpty { return .some("") }
        if ours == "-" { return .some(nil) }
        return try store.user(named: ours) == nil ? .none : .some(ours)
    }

    /// Two records of one item for one user (a library listing a file twice): the larger counts, the later
    /// dates, the first rating.
    private static func merged(_ old: ImportedUserValues?, _ new: ImportedUserValues) -> ImportedUserValues {
        guard var old else { return new }
        old.rating = old.rating ?? new.rating
        old.playCount = [old.playCount, new.playCount].compactMap { $0 }.max()
        old.skipCount = [old.skipCount, new.skipCount].compactMap { $0 }.max()
        old.lastPlayed = [old.lastPlayed, new.lastPlayed].compactMap { $0 }.max()
        old.starred = old.starred ?? new.starred
        return old
    }
}
