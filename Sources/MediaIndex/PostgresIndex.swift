import Foundation
import PostgresNIO
import MediaModel

/// The library store on a PostgreSQL server: one library that several hosts scan and query at once. It
/// conforms to the same protocols as `SQLiteIndex` and answers the scanner's primitives the same way, so
/// the scanner's identity policy (`Moves`) and every front work with it unchanged.
///
/// - Paths are qualified by host (`location.rootHost`): the scanner's primitives see this host's items,
///   roots, failures and mounts only; queries, playlists and statistics see the whole library.
/// - Scans of different roots run at once (`PostgresRootLock`: an advisory lock per root, not per library);
///   readers never wait for them (MVCC), and a scan killed at any moment leaves its last committed batch.
/// - Queries compile to SQL for what PostgreSQL answers exactly and a residual predicate the in-memory
///   evaluator applies (`PostgresQueryCompiler`), so both stores give the same answers.
public final class PostgresIndex: Sendable {
    public let location: PostgresLocation
    let session: PostgresSession
    /// On the scanner's reading connection only: directory states read many directories at a time.
    let readAhead: DirectoryStateReadAhead?
    /// This host's name for its roots and items.
    var host: String { location.rootHost }

    /// Connects to the library at `location` and migrates its tables. `.create` creates them in a database
    /// without a library; `.existing` refuses such a database ("no library at …") and leaves it untouched.
    public init(_ location: PostgresLocation, mode: LibraryOpenMode = .create) throws {
        self.location = location
        session = try PostgresSession(location)
        readAhead = nil
        try PostgresSchema.migrate(session, creating: mode == .create)
    }

    public convenience init(url: String) throws {
        try self.init(try PostgresLocation(url: url))
    }

    /// Another connection to the same library (the scanner reads directory state on it while it writes).
    public func secondConnection() throws -> PostgresIndex {
        try PostgresIndex(location, readAhead: nil)
    }

    private init(_ location: PostgresLocation, readAhead: DirectoryStateReadAhead?) throws {
        self.location = location
        self.readAhead = readAhead
        session = try PostgresSession(location)
    }

    var databaseName: String { location.description }

    // MARK: Item rows

    /// Every item column a SELECT reads, in `decodeItem`'s order: id, path, tags, then `ItemRow.stored`.
    static let selectColumns: String =
        (["id", "path", "tags"] + ItemRow.stored.map(\.rawValue)).map { "items." + ItemRow.quoted($0) }.joined(separator: ", ")

    static func decodeItem(_ row: PostgresRow) -> MediaItem {
        let r = row.makeRandomAccess()
        let path = r[1].value(Data.self).map { Array($0) } ?? []
        var item = MediaItem(path: MediaPath(bytes: path), tags: decodeTags(r[2].value(String.self)))
        item.persistentID = r[0].value(Int64.self) ?? 0
        for (offset, property) in ItemRow.stored.enumerated() {
            item[property] = value(r[3 + offset], as: property.spec.type)
        }
        return item
    }

    static func value(_ cell: PostgresCell, as type: MediaProperty.ValueType) -> MediaValue? {
        switch type {
        case .text, .date: cell.value(String.self).map(MediaValue.text)
        case .integer, .mediaType: cell.value(Int64.self).map(MediaValue.integer)
        case .bool: cell.value(Int64.self).map { .bool($0 != 0) }
        case .real, .timestamp, .duration: cell.value(Double.self).map(MediaValue.real)
        }
    }

    /// A property's value as its column's type (what SQLite's column affinity does).
    static func columnValue(_ value: MediaValue?, as type: MediaProperty.ValueType) -> PostgresValue {
        let v = value?.coerced(to: type)
        switch type {
        case .text, .date: return .text(v.map { $0.text ?? $0.description })
        case .integer, .mediaType, .bool: return .integer(v?.integer)
        case .real, .timestamp, .duration: return .real(v?.real.flatMap { $0.isFinite ? $0 : nil })
        }
    }

    static func decodeTags(_ text: String?) -> [String: String] {
        guard let text, let object = JSONValue.stringMap(parsing: text) else { return [:] }
        return object
    }

    static func encodeTags(_ tags: [String: String]) -> String? {
        guard !tags.isEmpty else { return nil }
        return JSONValue.object(tags.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }).serialized()
    }

    /// Byte range of paths strictly below `root` (as `SQLiteIndex.prefixRange`).
    static func prefixRange(_ root: MediaPath) -> (Data, Data) { SQLiteIndex.prefixRange(root) }

    /// `dir = root OR dir in root's range`, for a column and a root, with this host.
    func under(_ root: MediaPath, column: String = "dir", _ sql: inout SQLText) -> String {
        let (lower, upper) = Self.prefixRange(root)
        return "(\(column) = \(sql.bind(Data(root.bytes))) OR (\(column) >= \(sql.bind(lower)) AND \(column) < \(sql.bind(upper))))"
    }
}

extension PostgresIndex: LibraryReader, UserDataStore, PlaylistStore, RootStore, ScanStore {
    /// The scan's reader: a connection of its own that reads directory states ahead (one per scan).
    public func readingConnection() throws -> any ScanStore { try scanReader() }

    func scanReader(rowsPerRead: Int = DirectoryStateReadAhead.defaultRowsPerRead) throws -> PostgresIndex {
        try PostgresIndex(location, readAhead: DirectoryStateReadAhead(rowsPerRead: rowsPerRead))
    }
    public var libraryName: String { databaseName }
}
