import MediaIndex

/// An error inside the Subsonic envelope (`status="failed"`), with the API's codes.
public struct SubsonicError: Error, Sendable, CustomStringConvertible {
    public var code: Int
    public var message: String

    public init(_ code: Int, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "error \(code): \(message)" }

    static func generic(_ message: String) -> Self { .init(0, message) }
    static func missing(_ parameter: String) -> Self { .init(10, "Required parameter is missing: \(parameter)") }
    static let wrongCredentials = Self(40, "Wrong username or password")
    static let authMechanismUnsupported = Self(42, "Provided authentication mechanism not supported")
    static let conflictingAuth = Self(43, "Multiple conflicting authentication mechanisms provided")
    static let invalidAPIKey = Self(44, "Invalid API key")
    static func notAuthorized(_ what: String) -> Self { .init(50, "User is not authorized for \(what)") }
    static func notFound(_ what: String) -> Self { .init(70, "\(what) not found") }
    /// A store's refusal (a position outside a playlist…) as error 0, without the library's file or server
    /// locator that `IndexError` names for the CLI: no client learns where the library lives.
    static func library(_ error: IndexError) -> Self {
        let text = error.description
        let prefix = error.databasePath + ": "
        if text.hasPrefix(prefix) { return .generic(String(text.dropFirst(prefix.count))) }
        return .generic("the library cannot be read")
    }
}
