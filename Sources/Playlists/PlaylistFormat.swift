import MediaModel

/// The playlist file formats mlib reads and writes.
///
/// How each one names a file (see mlib(1), EXPORT):
/// - `m3u`: extended M3U with no declared encoding: paths are written as their raw bytes, so a name that is
///   not UTF-8 is kept exactly (that is what players on the same system open).
/// - `m3u8`: extended M3U in UTF-8 by definition: a path that is not UTF-8 (or holds a line break) is written
///   as an absolute `file://` URI with `%XX` escapes, so the file stays valid UTF-8 and loses nothing.
/// - `pls`: UTF-8, same rule as `m3u8`.
/// - `xspf`, `jspf`: every location is a URI (`file:///…`, or a relative reference with `--relative-to`),
///   escaped byte by byte, so any name works.
/// - `json`: every item property; a path that is not UTF-8 is `{"bytes": [..]}` as in `MediaPath`'s Codable.
public enum PlaylistFormat: String, Sendable, CaseIterable, Hashable {
    case m3u, m3u8, pls, xspf, jspf, json

    public var fileExtension: String { rawValue }

    /// The format named by a file's extension (`.M3U8` works too), or nil.
    public init?(pathExtension ext: String) {
        self.init(rawValue: ext.lowercased())
    }

    /// A guess from content, for files whose extension says nothing: `[playlist]` is PLS, XML is XSPF,
    /// a JSON object with a `playlist` key is JSPF, other JSON is the plain form, anything else M3U.
    public init(sniffing bytes: [UInt8]) {
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let head = String(decoding: bytes[start..<min(bytes.endIndex, start + 512)], as: UTF8.self)
        if head.lowercased().hasPrefix("[playlist]") { self = .pls }
        else if head.hasPrefix("<") { self = .xspf }
        else if head.hasPrefix("{"), head.contains("\"playlist\"") { self = .jspf }
        else if head.hasPrefix("{") || head.hasPrefix("[") { self = .json }
        else { self = .m3u }
    }

    /// The format for a playlist file: by extension, else by content.
    public static func detect(path: MediaPath, bytes: [UInt8]) -> PlaylistFormat {
        PlaylistFormat(pathExtension: path.fileExtension) ?? PlaylistFormat(sniffing: bytes)
    }
}

/// One entry read from a playlist file: where the file is, and what the playlist said about it.
public struct PlaylistEntry: Sendable, Hashable {
    public enum Location: Sendable, Hashable, CustomStringConvertible {
        /// A local file, absolute and normalized (relative entries are resolved against the playlist's folder).
        case file(MediaPath)
        /// A URI that is not a local file (`http://…`, `file://otherhost/…`), kept as written.
        case remote(String)

        public var description: String {
            switch self {
            case .file(let p): p.string
            case .remote(let s): s
            }
        }
    }

    public var location: Location
    public var title: String?
    public var artist: String?
    public var album: String?
    /// Seconds.
    public var duration: Double?

    public init(location: Location, title: String? = nil, artist: String? = nil, album: String? = nil,
                duration: Double? = nil) {
        self.location = location
        self.title = title
        self.artist = artist
        self.album = album
        self.duration = duration
    }

    public var path: MediaPath? { if case .file(let p) = location { p } else { nil } }
}

/// A playlist file as read: its own title when the format has one, and its entries in order.
public struct PlaylistDocument: Sendable, Hashable {
    public var title: String?
    public var entries: [PlaylistEntry]
    public init(title: String? = nil, entries: [PlaylistEntry]) {
        self.title = title
        self.entries = entries
    }
}

/// A playlist file that could not be read. One line, with the file and where in it.
public struct PlaylistError: Error, Sendable, CustomStringConvertible {
    public var path: String?
    public var message: String
    public init(path: String? = nil, _ message: String) {
        self.path = path
        self.message = message
    }
    /// Both parts escaped (`PlaylistText.printable`): a path or a message quoting the file may hold control bytes.
    public var description: String {
        let message = PlaylistText.printable(message)
        return path.map { "\(PlaylistText.printable($0)): \(message)" } ?? message
    }
}
