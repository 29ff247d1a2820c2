import Foundation
import PostgresNIO
import MediaIndex
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
public final class PostgresIndex: SQLStore, @unchecked Sendable {
    public let location: PostgresLocation
    let session: PostgresSession

    /// Connects to the library at `location`, creating and migrating its tables if needed.
    public init(_ location: PostgresLocation) throws {
        self.location = location
        session = try PostgresSession(location)
        super.init(connection: PostgresStoreConnection(session: session), compiler: PostgresQueryCompiler(), host: location.rootHost, libraryName: location.description)
        try PostgresSchema.migrate(session)
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
        session = try PostgresSession(location)
        super.init(connection: PostgresStoreConnection(session: session), compiler: PostgresQueryCompiler(), host: location.rootHost, libraryName: location.description,
                   readAhead: readAhead)
    }

    var databaseName: String { libraryName }

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

    static func decodeTags(_ text: String?) -> [String: String] { ItemRow.tags(fromJSON: text) }
    static func encodeTags(_ tags: [String: String]) -> String? { ItemRow.tagsJSON(tags) }

    /// `dir = root OR dir in root's range`, for a column and a root, with this host.
    func under(_ root: MediaPath, column: String = "dir", _ sql: inout SQLText) -> String {
        let (lower, upper) = root.rangeBelow
        return "(\(column) = \(sql.bind(Data(root.bytes))) OR (\(column) >= \(sql.bind(lower)) AND \(column) < \(sql.bind(upper))))"
    }
}

extension PostgresIndex: LibraryReader, UserDataStore, PlaylistStore, RootStore, ScanStore {
    /// The scan's reader: a connection of its own that reads directory states ahead (one per scan).
    public func readingConnection() throws -> any ScanStore { try scanReader() }

    func scanReader(rowsPerRead: Int = DirectoryStateReadAhead.defaultRowsPerRead) throws -> PostgresIndex {
        try PostgresIndex(location, readAhead: DirectoryStateReadAhead(rowsPerRead: rowsPerRead))
    }
}
