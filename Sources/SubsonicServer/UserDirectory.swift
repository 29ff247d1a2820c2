import Crypto
import Foundation
import Library
import MediaIndex

/// The API server's users (`mlib user add|remove|list|passwd` and authentication): accounts in the
/// library (`UserAccountStore`, both stores), passwords sealed by a `PasswordVault`.
public struct UserDirectory: Sendable {
    public let store: any UserAccountStore
    public let vault: PasswordVault
    /// A sealed password no one has, opened for an unknown user name as a known one's is: both cost the same.
    private let decoy: String

    /// `keyFile` nil: the library's default (`PasswordVault.defaultKeyFile`). `createKey`: make the key
    /// file when missing (adding a user does; serving does not need to).
    public init(library: Library, keyFile: String? = nil, createKey: Bool) throws {
        guard let store = library.store as? any UserAccountStore else {
            throw SubsonicError.generic("this library's store keeps no users")
        }
        let file = keyFile ?? library.locator.map { PasswordVault.defaultKeyFile(for: $0) } ?? ""
        guard !file.isEmpty else { throw SubsonicError.generic("a library opened without a locator needs a key file") }
        self.store = store
        // Issue 38: a second host of a shared library without the key file made a new one, after which each
        // user could log in on one host only (the passwords are sealed with the first host's key).
        if createKey, !FileManager.default.fileExists(atPath: file), let someone = try store.users().first {
            throw SubsonicError.generic("""
                this library has users (\(someone.name)…) but this host has no key file \(file): copy it from the host where \
                they were added (their passwords are sealed with it; a new key would let each user log in on one host only)
                """)
        }
        vault = try PasswordVault(keyFile: file, create: createKey)
        decoy = try vault.seal(Self.newAPIKey())
        try Self.hashClearAPIKeys(in: store)
    }

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

    @discardableResult
    public func add(name: String, password: String, admin: Bool = false, apiKey: Bool = true) throws -> UserAccount {
        guard !password.isEmpty else { throw SubsonicError.generic("a password cannot be empty") }
        // A taken name is the caller's mistake about the data (status 1 in the CLI), not a usage error.
        if try store.user(named: name) != nil { throw SubsonicError.generic("user \"\(name)\" exists") }
        let key = apiKey ? Self.newAPIKey() : nil
        var account = UserAccount(name: name, password: try vault.seal(password), apiKey: key.map(Self.storedAPIKey),
                                  isAdmin: admin, created: Date())
        try store.addUser(account)
        account.apiKey = key   // the clear key, for the caller to show once
        return account
    }

    public func remove(name: String) throws {
        guard try store.removeUser(named: name) else { throw SubsonicError.notFound("User \"\(name)\"") }
    }

    public func list() throws -> [UserAccount] { try store.users() }

    public func setPassword(name: String, to password: String) throws {
        guard !password.isEmpty else { throw SubsonicError.generic("a password cannot be empty") }
        guard try store.setPassword(of: name, to: try vault.seal(password)) else { throw SubsonicError.notFound("User \"\(name)\"") }
    }

    /// A new OpenSubsonic API key for `name` (the old one stops working).
    public func renewAPIKey(name: String) throws -> String {
        let key = Self.newAPIKey()
        guard try store.setAPIKey(of: name, to: Self.storedAPIKey(key)) else { throw SubsonicError.notFound("User \"\(name)\"") }
        return key
    }

    static func newAPIKey() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.map { String(format: "%02x", $0) }.joined()
    }

    // MARK: Authentication

    /// The user a request's parameters authenticate, by Subsonic's rules: `apiKey` alone (OpenSubsonic),
    /// or `u` with `t`+`s` (token: md5(password + salt)) or `p` (clear, or `enc:` + hex).
    ///
    /// Neither the answer nor its time says whether a user name exists: which parameters are missing is
    /// decided before the name is looked up, and an unknown name opens a decoy sealed password and makes
    /// the same digest as a known one (Navidrome answers both with error 40 too).
    func authenticate(_ parameters: Parameters) throws -> UserAccount {
        if let key = parameters["apiKey"] {
            if parameters["u"] != nil { throw SubsonicError.conflictingAuth }
            guard let user = try store.user(apiKey: Self.storedAPIKey(key)) else { throw SubsonicError.invalidAPIKey }
            return user
        }
        guard let name = parameters["u"] else { throw SubsonicError.missing("u") }
        let token = parameters["t"], salt = parameters["s"], clear = parameters["p"]
        if clear != nil && (token != nil || salt != nil) { throw SubsonicError.conflictingAuth }
        if token != nil && salt == nil { throw SubsonicError.missing("s") }
        guard token != nil || clear != nil else { throw SubsonicError.missing("p or t and s") }
        let user = try store.user(named: name)
        let password = try? vault.open(user?.password ?? decoy)
        let matches: Bool
        if let token, let salt {
            let digest = Insecure.MD5.hash(data: Data(((password ?? "") + salt).utf8)).map { String(format: "%02x", $0) }.joined()
            matches = digest == token.lowercased()
        } else {
            var given = clear ?? ""
            if given.hasPrefix("enc:") { given = Self.hexDecoded(given.dropFirst(4)) ?? "" }
            matches = given == password
        }
        guard let user, password != nil, matches else { throw SubsonicError.wrongCredentials }
        return user
    }

    static func hexDecoded(_ hex: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) ?? hex.endIndex
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return String(bytes: bytes, encoding: .utf8)
    }
}
