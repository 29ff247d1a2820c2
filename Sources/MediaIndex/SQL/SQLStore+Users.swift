import Foundation

// The API server's users, stars and play queues (schema v13 / pg v8; a queue's current index v23 / pg v20), one
// text for both stores.
extension SQLStore: UserAccountStore {
    // Users and stars come from memory while the library's writes are heard (`userCache`, a server on
    // PostgreSQL): every request asks for its user.
    public func users() throws -> [UserAccount] {
        try cachedUsers() ?? readUsers()
    }

    // A text with a NUL names no one: SQLite reads a bound text up to its first NUL (`bob\0` would be bob,
    // a fresh name for the login throttle each time) and PostgreSQL refuses it.
    public func user(named name: String) throws -> UserAccount? {
        guard !name.contains("\0") else { return nil }
        if let users = try cachedUsers() { return users.first { $0.name == name } }
        return try read { x in try x.row(Self.userSelect + " WHERE name = \(name)").map(Self.account) }
    }

    public func user(apiKey: String) throws -> UserAccount? {
        guard !apiKey.contains("\0") else { return nil }
        if let users = try cachedUsers() { return users.first { $0.apiKey == apiKey } }
        return try read { x in try x.row(Self.userSelect + " WHERE api_key = \(apiKey)").map(Self.account) }
    }

    private func cachedUsers() throws -> [UserAccount]? { try userCache.users { try readUsers() } }

    private func readUsers() throws -> [UserAccount] {
        try read { x in try x.rows(Self.userSelect + " ORDER BY name").map(Self.account) }
    }

    public func addUser(_ user: UserAccount) throws {
        guard !user.name.trimmingCharacters(in: .whitespaces).isEmpty else { throw invalid("a user name cannot be empty") }
        guard !user.name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw invalid("a user name cannot hold control characters")
        }
        try write { x in
            if try x.row("SELECT 1 FROM users WHERE name = \(user.name)") != nil { throw invalid("user \"\(user.name)\" exists") }
            try x.execute("""
                INSERT INTO users (name, password, api_key, admin, created, is_owner)
                SELECT \(user.name), \(user.password), \(user.apiKey), \(user.isAdmin), \(user.created),
                    CASE WHEN EXISTS (SELECT 1 FROM users WHERE is_owner = 1) THEN 0 ELSE 1 END
                """)
        }
    }

    @discardableResult
    public func removeUser(named name: String) throws -> Bool {
        // The stars and play queue go by ON DELETE CASCADE (SQLite's foreign keys are on: SQLiteConnection).
        try write { x in
            try x.execute("DELETE FROM user_stars WHERE user_name = \(name)")
            try x.execute("DELETE FROM play_queues WHERE user_name = \(name)")
            try x.execute("DELETE FROM user_item_data WHERE user_name = \(name)")
            return try x.execute("DELETE FROM users WHERE name = \(name)") > 0
        }
    }

    @discardableResult
    public func setPassword(of name: String, to password: String) throws -> Bool {
        try write { x in try x.execute("UPDATE users SET password = \(password) WHERE name = \(name)") > 0 }
    }

    @discardableResult
    public func setAPIKey(of name: String, to apiKey: String?) throws -> Bool {
        try write { x in try x.execute("UPDATE users SET api_key = \(apiKey) WHERE name = \(name)") > 0 }
    }

    @discardableResult
    public func setAdmin(of name: String, to admin: Bool) throws -> Bool {
        try write { x in try x.execute("UPDATE users SET admin = \(admin) WHERE name = \(name)") > 0 }
    }

    public func stars(of user: String) throws -> [UserStar] {
        try userCache.stars(of: user) { try readStars(of: user) } ?? readStars(of: user)
    }

    private func readStars(of user: String) throws -> [UserStar] {
        try read { x in
            try x.rows("SELECT kind, key, starred FROM user_stars WHERE user_name = \(user) ORDER BY starred DESC, key").compactMap { row in
                guard let kind = row.text(0).flatMap(UserStar.Kind.init(rawValue:)), let key = row.text(1) else { return nil }
                return UserStar(kind: kind, key: key, starred: row.date(2) ?? Date(timeIntervalSince1970: 0))
            }
        }
    }

    public func star(_ stars: [UserStar], for user: String) throws {
        try write { x in
            for star in stars {
                // Starring again keeps the first date (as Navidrome does).
                try x.execute("""
                    INSERT INTO user_stars (user_name, kind, key, starred) VALUES (\(user), \(star.kind.rawValue), \(star.key), \(star.starred))
                    ON CONFLICT (user_name, kind, key) DO NOTHING
                    """)
            }
        }
    }

    public func unstar(_ stars: [(kind: UserStar.Kind, key: String)], for user: String) throws {
        try write { x in
            for star in stars {
                try x.execute("DELETE FROM user_stars WHERE user_name = \(user) AND kind = \(star.kind.rawValue) AND key = \(star.key)")
            }
        }
    }

    public func playQueue(of user: String) throws -> SavedPlayQueue? {
        try read { x in
            try x.row("SELECT item_ids, current, position, changed, changed_by, current_index FROM play_queues WHERE user_name = \(user)").map { row in
                SavedPlayQueue(itemIDs: (row.text(0) ?? "").split(separator: ",").compactMap { Int64($0) },
                               current: row.int64(1), currentIndex: row.int(5), position: row.int64(2) ?? 0,
                               changed: row.date(3) ?? Date(timeIntervalSince1970: 0), changedBy: row.text(4) ?? "")
            }
        }
    }

    public func savePlayQueue(_ queue: SavedPlayQueue, for user: String) throws {
        let ids = queue.itemIDs.map(String.init).joined(separator: ",")
        try write { x in
            try x.execute("""
                INSERT INTO play_queues (user_name, item_ids, current, current_index, position, changed, changed_by)
                VALUES (\(user), \(ids), \(queue.current), \(queue.resolvedCurrentIndex), \(queue.position), \(queue.changed), \(queue.changedBy))
                ON CONFLICT (user_name) DO UPDATE SET item_ids = excluded.item_ids, current = excluded.current,
                    current_index = excluded.current_index, position = excluded.position, changed = excluded.changed,
                    changed_by = excluded.changed_by
                """)
        }
    }

    private static let userSelect: SQLStatement = "SELECT name, password, api_key, admin, created, is_owner FROM users"

    private static func account(_ row: SQLRow) -> UserAccount {
        UserAccount(name: row.text(0) ?? "", password: row.text(1) ?? "", apiKey: row.text(2), isAdmin: row.bool(3) ?? false,
                    created: row.date(4) ?? Date(timeIntervalSince1970: 0), isOwner: row.bool(5) ?? false)
    }
}
