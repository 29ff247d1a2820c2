import MediaModel

/// Writes items as a playlist in one format, one item at a time, into a byte buffer: callers can stream
/// items from the index without holding them all. `PlaylistWriter.data(for:format:options:)` does it in one go.
public struct PlaylistWriter: Sendable {
    public enum PathStyle: Sendable, Hashable {
        /// Absolute paths (the default).
        case absolute
        /// Paths relative to this absolute directory, with `../` where needed.
        case relative(to: MediaPath)
    }

    public struct Options: Sendable, Hashable {
        public var paths: PathStyle
        /// The playlist's own title, where the format has one (XSPF, JSPF, `#PLAYLIST:` in M3U).
        public var title: String?
        public init(paths: PathStyle = .absolute, title: String? = nil) {
            self.paths = paths
            self.title = title
        }
    }

    public let format: PlaylistFormat
    public let options: Options
    public private(set) var count = 0
    private let locations: PlaylistLocations
    private var out: ByteBuffer

    public init(format: PlaylistFormat, options: Options = Options(), capacity: Int = 1 << 16) {
        self.format = format
        self.options = options
        self.locations = PlaylistLocations(style: options.paths)
        self.out = ByteBuffer(capacity: capacity)
        writeHeader()
    }

    /// The whole playlist for `items`, in order.
    public static func data(for items: some Sequence<MediaItem>, format: PlaylistFormat,
                            options: Options = Options()) -> [UInt8] {
        var writer = PlaylistWriter(format: format, options: options, capacity: items.underestimatedCount * 200 + 256)
        for item in items { writer.append(item) }
        return writer.finish()
    }

    /// `host`: whose file the item is, written in the JSON format only (a "host" member after "path", as
    /// `mlib ls --json` writes it) when a shared library's listing holds several hosts' items.
    public mutating func append(_ item: MediaItem, host: String? = nil) {
        count += 1
        switch format {
        case .m3u, .m3u8: M3U.append(item, utf8Only: format == .m3u8, locations: locations, to: &out)
        case .pls: PLS.append(item, number: count, locations: locations, to: &out)
        case .xspf: XSPF.append(item, locations: locations, to: &out)
        case .jspf: JSPF.append(item, number: count, locations: locations, to: &out)
        case .json:
            out.append(count == 1 ? "\n" : ",\n")
            var json = item.json(path: locations.pathAsWritten(item.path))
            if let host, case .object(var members) = json {
                members.insert(("host", .string(host)), at: min(1, members.count))
                json = .object(members)
            }
            out.append(json: json)
        }
    }

    /// Closes the document and returns its bytes.
    public consuming func finish() -> [UInt8] {
        switch format {
        case .m3u, .m3u8: break
        case .pls: PLS.writeFooter(count: count, to: &out)
        case .xspf: XSPF.writeFooter(to: &out)
        case .jspf: JSPF.writeFooter(to: &out)
        case .json: out.append(count == 0 ? "]\n" : "\n]\n")   // byte for byte as `mlib ls --json`
        }
        return out.bytes
    }

    private mutating func writeHeader() {
        switch format {
        case .m3u, .m3u8: M3U.writeHeader(title: options.title, to: &out)
        case .pls: out.append("[playlist]\n")
        case .xspf: XSPF.writeHeader(title: options.title, to: &out)
        case .jspf: JSPF.writeHeader(title: options.title, to: &out)
        case .json: out.append("[")
        }
    }
}

extension MediaItem {
    /// The shared item JSON (`MediaItem.json()`), with the path as written in this playlist.
    func json(path written: MediaPath) -> JSONValue {
        guard written != path, case .object(var members) = json() else { return json() }
        members[0] = ("path", written.json)
        return .object(members)
    }
}

extension ByteBuffer {
    /// "Artist - Title" (or the title alone) on one line: the M3U and PLS display form. Line breaks
    /// become spaces, so a tag can never start a line of its own.
    mutating func append(displayTitleOf item: MediaItem) {
        if let artist = item.artist { append(oneLine: artist); append(" - ") }
        append(oneLine: item.displayTitle)
    }

    mutating func append(oneLine s: String) {
        let start = bytes.count
        append(s)
        for i in start..<bytes.count where bytes[i] == 0x0A || bytes[i] == 0x0D { replaceByte(at: i, with: 0x20) }
    }
}
