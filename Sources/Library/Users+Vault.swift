import Crypto
import Foundation
import MediaModel
import MediaIndex

/// Encrypts the users' passwords with a key kept in a file of mode 0600 beside the library (as Navidrome
/// does): Subsonic's token auth (`t = md5(password + salt)`) needs the clear password on the server, so it
/// cannot be stored as a one-way hash. Whoever reads the library alone learns nothing; whoever
/// reads the library and the key file learns the passwords. AES-256-GCM (swift-crypto).
public struct PasswordVault: Sendable {
    public let keyFile: String
    private let key: SymmetricKey

    static let prefix = "aes-gcm:"

    /// The key file of `locator`: `<library file>.users-key` beside an SQLite library; for PostgreSQL
    /// `$XDG_CONFIG_HOME/mlib/<database>.users-key` (~/.config by default) — copy it to every host that
    /// serves the same library.
    public static func defaultKeyFile(for locator: LibraryLocator,
                                      environment: [String: String] = ConfigurationDirectory.environment) -> String {
        switch locator {
        case .sqlite(let path): return path + ".users-key"
        case .postgres(let url):
            let database = url.split(separator: "?").first.flatMap { $0.split(separator: "/").last }.map(String.init) ?? "library"
            return ConfigurationDirectory.path(environment: environment) + "/" + database.filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } + ".users-key"
        }
    }

    /// Opens the key in `keyFile`; with `create`, makes a new random one (mode 0600) when there is none.
    /// Refuses a key file that others can read.
    public init(keyFile: String, create: Bool) throws {
        self.keyFile = keyFile
        let fm = FileManager.default
        if !fm.fileExists(atPath: keyFile) {
            guard create else { throw UsersError.generic("no key file \(keyFile): add a user first (mlib user add)") }
            // A library named by a relative path has its key file in the current directory: no folder to make.
            // By the path's bytes: `deletingLastPathComponent` traps on a one-character path (issue 47).
            let folder = MediaPath(keyFile).directory.string
            if folder != "." { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            let key = SymmetricKey(size: .bits256)
            let text = key.withUnsafeBytes { Data($0).base64EncodedString() } + "\n"
            // Created 0600 from the start (open with O_EXCL), never readable by others even for a moment.
            let fd = Glibc.open(keyFile, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            guard fd >= 0 else { throw UsersError.generic("cannot create key file \(keyFile): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            let written = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            guard written == text.utf8.count else { throw UsersError.generic("cannot write key file \(keyFile)") }
        }
        var info = stat()
        guard stat(keyFile, &info) == 0 else { throw UsersError.generic("cannot read key file \(keyFile)") }
        if info.st_mode & 0o077 != 0 {
            throw UsersError.generic("key file \(keyFile) is readable by others (chmod 600 \(keyFile))")
        }
        let text = try String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bytes = Data(base64Encoded: text), bytes.count == 32 else {
            throw UsersError.generic("key file \(keyFile) does not hold a 256-bit key in base64")
        }
        key = SymmetricKey(data: bytes)
    }

    public func seal(_ password: String) throws -> String {
        let box = try AES.GCM.seal(Data(password.utf8), using: key)
        guard let combined = box.combined else { throw UsersError.generic("cannot encrypt") }
        return Self.prefix + combined.base64EncodedString()
    }

    public func open(_ stored: String) throws -> String {
        guard stored.hasPrefix(Self.prefix), let data = Data(base64Encoded: String(stored.dropFirst(Self.prefix.count))) else {
            throw UsersError.generic("a stored password is not in the vault's form")
        }
        let clear = try AES.GCM.open(AES.GCM.SealedBox(combined: data), using: key)
        return String(decoding: clear, as: UTF8.self)
    }
}
