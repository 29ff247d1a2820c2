/// Why the index could not do something. Every case carries the database path and renders as one line.
public enum IndexError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database could not be opened or created (bad directory, not an SQLite file, newer schema…).
    case cannotOpen(database: String, reason: String)
    /// Nothing at the path (opened with `LibraryOpenMode.existing`).
    case noLibrary(database: String)
    /// An SQLite error while reading or writing.
    case database(database: String, reason: String)
    case playlistNotFound(database: String, name: String)
    case playlistExists(database: String, name: String)
    case itemNotFound(database: String, id: Int64)
    case invalidArgument(database: String, reason: String)

    public var databasePath: String {
        switch self {
        case .cannotOpen(let d, _), .noLibrary(let d), .database(let d, _), .playlistNotFound(let d, _), .playlistExists(let d, _),
             .itemNotFound(let d, _), .invalidArgument(let d, _): d
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let d, let r): "\(d): cannot open library: \(r)"
        case .noLibrary(let d): "no library at \(d)"
        case .database(let d, let r): "\(d): \(r)"
        case .playlistNotFound(let d, let n): "\(d): no playlist named \"\(n)\""
        case .playlistExists(let d, let n): "\(d): a playlist named \"\(n)\" already exists"
        case .itemNotFound(let d, let id): "\(d): no item with id \(id)"
        case .invalidArgument(let d, let r): "\(d): \(r)"
        }
    }
}
