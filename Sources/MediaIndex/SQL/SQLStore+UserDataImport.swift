import Foundation
import MediaModel

// Imports of other programs' user data (`UserDataImportStore`), one text for both stores. The merge rule
// (max of counts, later date, rating only where none, a listen once) is what makes a second import of the
// same file change nothing: no "imported from" mark is needed.
extension SQLStore: UserDataImportStore {
    public func importUserData(_ batches: [UserDataImportBatch]) throws -> UserDataImportOutcome {
        for batch in batches { try Self.check(batch, self) }
        return try write { x in
            var outcome = UserDataImportOutcome()
            for batch in batches { try importBatch(batch, into: &outcome, x) }
            return outcome
        }
    }

    /// Refuses what no store would keep, before the transaction begins.
    static func check(_ batch: UserDataImportBatch, _ store: SQLStore) throws {
        let invalid = store.invalid
        for values in batch.values {
            if let rating = values.rating, let bad = UserDataEdits.problem(.rating, Int64(rating)) { throw invalid(bad) }
            if (values.playCount ?? 0) < 0 || (values.skipCount ?? 0) < 0 { throw invalid("an imported count cannot be negative") }
            for date in [values.lastPlayed, values.starred].compactMap({ $0 }) where !StoredBounds.contains(date) {
                throw invalid("an imported date must lie within the years 1–9999")
            }
        }
        for listen in batch.listens where !StoredBounds.contains(listen.date) { throw invalid("a listen's date must lie within the years 1–9999") }
    }

    private func importBatch(_ batch: UserDataImportBatch, into outcome: inout UserDataImportOutcome, _ x: any SQLExecutor) throws {
        let own = try Self.dataUser(batch.user, x, libraryName)
        // A star is an account's: the owner's account when there is one.
        let starUser: String? = try own ?? x.row("SELECT name FROM users WHERE is_owner = 1").flatMap { $0.text(0) }
        for values in batch.values {
            if try Self.mergeImported(values, own: own, x) > 0 { outcome.itemsChanged += 1 }
            else if try x.row("SELECT 1 FROM items WHERE id = \(values.itemID)") == nil {
                throw IndexError.itemNotFound(database: libraryName, id: values.itemID)
            }
            if let starred = values.starred, let starUser {
                outcome.starsAdded += try x.execute("""
                    INSERT INTO user_stars (user_name, kind, key, starred) VALUES (\(starUser), \(UserStar.Kind.song.rawValue), \(String(values.itemID)), \(starred))
                    ON CONFLICT (user_name, kind, key) DO NOTHING
                    """)
            }
        }
        for listen in batch.listens {
            // The same user's listen of the same item within a second is the same listen (ListenBrainz
            // keeps whole seconds; mlib's own export rounds to them).
            let whose: SQLStatement = own.map { "user_name = \($0)" }
                ?? "(user_name IS NULL OR user_name IN (SELECT name FROM users WHERE is_owner = 1))"
            let lower = listen.date.addingTimeInterval(-1), upper = listen.date.addingTimeInterval(1)
            if try x.row("SELECT 1 FROM history WHERE item_id = \(listen.itemID) AND \(whose) AND played_at > \(lower) AND played_at < \(upper)") != nil {
                outcome.listensAlreadyThere += 1
                continue
            }
            let counted = try own.map { own in
                try x.execute("""
                    INSERT INTO user_item_data (user_name, item_id, play_count, last_played)
                    SELECT \(own), id, 1, \(listen.date) FROM items WHERE id = \(listen.itemID)
                    ON CONFLICT (user_name, item_id) DO UPDATE SET play_count = user_item_data.play_count + 1,
                        last_played = CASE WHEN COALESCE(user_item_data.last_played, 0) >= excluded.last_played
                            THEN user_item_data.last_played ELSE excluded.last_played END
                    """)
            } ?? x.execute(#"""
                UPDATE items SET "playCount" = COALESCE("playCount", 0) + 1,
                    "lastPlayedDate" = CASE WHEN COALESCE("lastPlayedDate", 0) >= \#(listen.date) THEN "lastPlayedDate" ELSE \#(listen.date) END
                WHERE id = \#(listen.itemID)
                """#)
            guard counted > 0 else { throw IndexError.itemNotFound(database: libraryName, id: listen.itemID) }
            try x.execute("""
                INSERT INTO history (item_id, kind, played_at, heard, front, user_name)
                VALUES (\(listen.itemID), \(Listen.Kind.play.rawValue), \(listen.date), \(listen.heard), \(listen.front.rawValue), \(batch.user))
                """)
            outcome.listensAdded += 1
        }
    }

    /// Merges one item's imported values into `own`'s (nil: the owner's, the item's columns); returns how
    /// many rows changed (0: nothing new, or no such item). Only a value that changes something is written,
    /// so a second import touches no row (and the change log hears nothing).
    static func mergeImported(_ v: ImportedUserValues, own: String?, _ x: any SQLExecutor) throws -> Int {
        let plays = v.playCount.map(Int64.init), skips = v.skipCount.map(Int64.init)
        let rating: Int64? = v.rating.flatMap { $0 > 0 ? Int64($0) : nil }
        guard plays != nil || skips != nil || rating != nil || v.lastPlayed != nil else { return 0 }
        guard let own else {
            // The owner's: the item's columns. Each clause is there only for a value the file has (no NULL
            // parameter whose type PostgreSQL would have to guess).
            var sets: [SQLStatement] = [], news: [SQLStatement] = []
            if let plays {
                sets.append(#""playCount" = CASE WHEN COALESCE("playCount", 0) >= \#(plays) THEN "playCount" ELSE \#(plays) END"#)
                news.append(#"COALESCE("playCount", 0) < \#(plays)"#)
            }
            if let skips {
                sets.append(#""skipCount" = CASE WHEN COALESCE("skipCount", 0) >= \#(skips) THEN "skipCount" ELSE \#(skips) END"#)
                news.append(#"COALESCE("skipCount", 0) < \#(skips)"#)
            }
            if let date = v.lastPlayed {
                sets.append(#""lastPlayedDate" = CASE WHEN COALESCE("lastPlayedDate", 0) >= \#(date) THEN "lastPlayedDate" ELSE \#(date) END"#)
                news.append(#"COALESCE("lastPlayedDate", 0) < \#(date)"#)
            }
            if let rating {
                sets.append(#""rating" = COALESCE("rating", \#(rating))"#)
                news.append(#""rating" IS NULL"#)
            }
            return try x.execute("UPDATE items SET " + SQLStatement.joined(sets, separator: ", ")
                                 + " WHERE id = \(v.itemID) AND (" + SQLStatement.joined(news, separator: " OR ") + ")")
        }
        guard try x.row("SELECT 1 FROM items WHERE id = \(v.itemID)") != nil else { return 0 }
        return try x.execute("""
            INSERT INTO user_item_data (user_name, item_id, rating, play_count, skip_count, last_played)
            VALUES (\(own), \(v.itemID), \(rating), \(plays ?? 0), \(skips ?? 0), \(v.lastPlayed))
            ON CONFLICT (user_name, item_id) DO UPDATE SET
                play_count = CASE WHEN user_item_data.play_count >= excluded.play_count THEN user_item_data.play_count ELSE excluded.play_count END,
                skip_count = CASE WHEN user_item_data.skip_count >= excluded.skip_count THEN user_item_data.skip_count ELSE excluded.skip_count END,
                last_played = CASE WHEN excluded.last_played IS NULL OR COALESCE(user_item_data.last_played, 0) >= excluded.last_played
                    THEN user_item_data.last_played ELSE excluded.last_played END,
                rating = COALESCE(user_item_data.rating, excluded.rating)
            WHERE user_item_data.play_count < excluded.play_count OR user_item_data.skip_count < excluded.skip_count
                OR (excluded.last_played IS NOT NULL AND COALESCE(user_item_data.last_played, 0) < excluded.last_played)
                OR (user_item_data.rating IS NULL AND excluded.rating IS NOT NULL)
            """)
    }
}
