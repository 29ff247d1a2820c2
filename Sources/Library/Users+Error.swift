/// What `Users` refuses: one line for the user (the CLI exits 1 with it; the API server answers error 0,
/// or 70 for `notFound`).
public enum UsersError: Error, Sendable, Equatable, CustomStringConvertible {
    case generic(String)
    /// What is not there, as "User \"bob\"".
    case notFound(String)
    /// A user named where one is needed (`--user`, `MLIB_USER`) who is no account of the library.
    case unknownUser(String)

    public var message: String {
        switch self {
        case .generic(let text): text
        case .notFound(let what): "\(what) not found"
        case .unknownUser(let name): "no user named \"\(name)\" in this library (mlib user list shows them)"
        }
    }

    public var description: String { message }
}
