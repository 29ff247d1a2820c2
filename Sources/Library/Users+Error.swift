/// What `Users` (and the library's other per-user rights: radio stations, shares) refuses: one line for the
/// user (the CLI exits 1 with it; the API server answers error 0, 70 for `notFound`, 50 for `notAllowed`).
public enum UsersError: Error, Sendable, Equatable, CustomStringConvertible {
    case generic(String)
    /// What is not there, as "User \"bob\"".
    case notFound(String)
    /// What this account may not do, as "editing radio stations (admins only)".
    case notAllowed(String)
    /// A user named where one is needed (`--user`, `MLIB_USER`) who is no account of the library.
    case unknownUser(String)

    public var message: String {
        switch self {
        case .generic(let text): text
        case .notFound(let what): "\(what) not found"
        case .notAllowed(let what): "not allowed: \(what)"
        case .unknownUser(let name): "no user named \"\(name)\" in this library (mlib user list shows them)"
        }
    }

    public var description: String { message }
}
