import Crypto
import Foundation
import Library
import MediaIndex

// Subsonic's authentication over the library's users (`Users`): only what is HTTP stays here.
extension Users {
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
        let (user, password) = try credentials(of: name)
        let matches: Bool
        if let token, let salt {
            let digest = Insecure.MD5.hash(data: Data(((password ?? "") + salt).utf8)).map { String(format: "%02x", $0) }.joined()
            matches = digest == token.lowercased()
        } else {
            matches = Self.clearPassword(clear ?? "") == password
        }
        guard let user, password != nil, matches else { throw SubsonicError.wrongCredentials }
        return user
    }

    /// A password as Subsonic sends it (`p`, `createUser`'s `password`…): clear, or `enc:` + the hex of its
    /// UTF-8; nil when that hex is not.
    static func clearPassword(_ given: String) -> String? {
        given.hasPrefix("enc:") ? hexDecoded(given.dropFirst(4)) : given
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

extension SubsonicError {
    /// `Users`' refusals inside the Subsonic envelope.
    static func users(_ error: UsersError) -> Self {
        switch error {
        case .notFound(let what): .notFound(what)
        case .notAllowed(let what): .notAuthorized(what)
        case .generic, .unknownUser: .generic(error.message)
        }
    }
}
