import Crypto
import Foundation
import MediaIndex

/// The library's users (`mlib user`, the API server's logins, the MPD server's `password`): accounts in
/// the library (`UserAccountStore`, both stores), passwords sealed by a `PasswordVault` whose key file lives
/// beside the library. Every front asks here; none keeps users of its own. One account may be the owner
/// (`UserAccount.isOwner`): their values are the items' own.
public struct Users: Sendable {
    public let store: any UserAccountStore
    public let vault: PasswordVault
    /// A sealed password no one has, opened for an unknown user name as a known one's is: both cost the same.
    private let decoy: String

    /// `keyFile` nil: the library's default (`PasswordVault.defaultKeyFile`). `createKey`: make the key
    /// file when missing (adding a user does; serving does not need to).
    public init(library: Library, keyFile: String? = nil, createKey: Bool) throws {
        let store = library.store
        let file = keyFile ?? library.locator.map { PasswordVault.defaultKeyFile(for: $0) } ?? ""
        guard !file.isEmpty else { throw UsersError.generic("a library opened without a locator needs a key file") }
        self.store = store
        // Issue 38: a second host of a shared library without the key file made a new one, after which each
        // user could log in on one host only (the passwords are sealed with the first host's key).
        if createKey, !FileManager.default.fileExists(atPath: file), let someone = try store.users().first(where: Self.canLogIn) {
            throw UsersError.generic("""
                this library has users (\(someone.name)…) but this host has no key file \(file): copy it from the host where \
                they were added (their passwords are sealed with it; a new key would let each user log in on one host only)
                """)
        }
        vault = try PasswordVault(keyFile: file, create: createKey)
        decoy = try vault.seal(Self.newAPIKey())
        try Self.hashClearAPIKeys(in: store)
    }

    /// Whether an account has a password at all (one made by a step of the schema has none until given one).
    static func canLogIn(_ account: UserAccount) -> Bool { !account.password.isEmpty }

    /// API keys are stored as `sha256:` and the hex SHA-256 of the key: whoever reads the library learns no
    /// key (a key is 256 random bits: a plain hash cannot be reversed, no salt is needed). The key itself
    /// is shown once, when made (`mlib user add`, `mlib user key --reset`).
    public static func storedAPIKey(_ key: String) -> String {
        key.hasPrefix(hashPrefix) ? key : hashPrefix + SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static let hashPrefix = "sha256:"

    /// A library made before keys were hashed keeps each user's key in clear: hashed here, when the users
    /// are first opened (the keys go on working; only `mlib user key --reset` shows one again).
    static func hashClearAPIKeys(in store: any UserAccountStore) throws {
        for user in try store.users() {
            if let key = user.apiKey, !key.hasPrefix(hashPrefix) { _ = try store.setAPIKey(of: user.name, to: storedAPIKey(key)) }
        }
    }

    /// Adds an account; the first one of a library whose owner has no account becomes the owner. `admin`
    /// nil: an admin when it is the library's first account (`mlib user add` without `--admin` or
    /// `--no-admin`: a household's first account could otherwise manage nothing, and no one could make it
    /// an admin through the API).
    @discardableResult
    public func add(name: String, password: String, admin: Bool? = false, apiKey: Bool = true) throws -> UserAccount {
        guard !password.isEmpty else { throw UsersError.generic("a password cannot be empty") }
        // A taken name is the caller's mistake about the data (status 1 in the CLI), not a usage error.
        if try store.user(named: name) != nil { throw UsersError.generic("user \"\(name)\" exists") }
        let key = apiKey ? Self.newAPIKey() : nil
        let isAdmin = try admin ?? store.users().isEmpty
        let account = UserAccount(name: name, password: try vault.seal(password), apiKey: key.map(Self.storedAPIKey),
                                  isAdmin: isAdmin, created: Date())
        try store.addUser(account)
        var added = try store.user(named: name) ?? account
        added.apiKey = key   // the clear key, for the caller to show once
        return added
    }

    public func remove(name: String) throws {
        guard try store.removeUser(named: name) else { throw UsersError.notFound("User \"\(name)\"") }
    }

    public func list() throws -> [UserAccount] { try store.users() }

    public func setPassword(name: String, to password: String) throws {
        guard !password.isEmpty else { throw UsersError.generic("a password cannot be empty") }
        guard try store.setPassword(of: name, to: try vault.seal(password)) else { throw UsersError.notFound("User \"\(name)\"") }
    }

    /// A new OpenSubsonic API key for `name` (the old one stops working).
    public func renewAPIKey(name: String) throws -> String {
        let key = Self.newAPIKey()
        guard try store.setAPIKey(of: name, to: Self.storedAPIKey(key)) else { throw UsersError.notFound("User \"\(name)\"") }
        return key
    }

    static func newAPIKey() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.map { String(format: "%02x", $0) }.joined()
    }

    // MARK: Authentication

    /// `name`'s account and clear password, for a front's own check (Subsonic's token). An unknown name (or
    /// an account without a password) opens the decoy as a known one's password is opened, and answers a
    /// nil password: whether a name exists does not show in the time taken.
    public func credentials(of name: String) throws -> (account: UserAccount?, password: String?) {
        let account = try store.user(named: name)
        let sealed = account.map { Self.canLogIn($0) ? $0.password : decoy } ?? decoy
        let password = try? vault.open(sealed)
        return (account, account.map(Self.canLogIn) == true ? password : nil)
    }

    /// The account whose password `password` is (the MPD server's `password user:secret`), or nil.
    public func account(named name: String, password: String) throws -> UserAccount? {
        let (account, clear) = try credentials(of: name)
        guard let account, let clear, Self.constantTimeEqual(clear, password) else { return nil }
        return account
    }

    /// Whether two texts are equal, in a time that depends on their lengths only.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) { difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0) }
        return difference == 0
    }
}
