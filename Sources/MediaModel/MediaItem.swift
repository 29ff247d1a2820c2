/// One media file in the library, as Apple's `MPMediaItem`: a bag of property values keyed by
/// `MediaProperty`, plus the path (bytes) and the raw tag map as read from the file.
///
/// Values live in an array indexed by `MediaProperty.ordinal`; `item[.title]` reads one. Typed accessors
/// below cover the common properties; everything generic goes through the subscript.
public struct MediaItem: Sendable, Hashable, Identifiable {
    private var values: [MediaValue?]
    /// The exact file path (bytes).
    public var path: MediaPath
    /// Every tag as read, keys normalised to upper case (Vorbis-comment style: `ALBUMARTIST`, `DISCNUMBER`).
    /// Multiple values of one key are joined with "; ".
    public var tags: [String: String]

    public init(path: MediaPath, tags: [String: String] = [:]) {
        self.values = Array(repeating: nil, count: MediaProperty.allCases.count)
        self.path = path
        self.tags = tags
    }

    public var id: Int64 { persistentID }

    /// `item[.rating]` is the rating users see, query and sort by: their own (set in mlib, kept by the
    /// index) when there is one, else the file's tag rating (`tagRating`). Setting it sets the user's
    /// rating; `userRating` reads that alone. Stores compute the same in SQL (`ItemRow.valueExpression`).
    public subscript(property: MediaProperty) -> MediaValue? {
        get {
            switch property {
            case .path: .text(path.string)
            case .rating: values[MediaProperty.rating.ordinal] ?? values[MediaProperty.tagRating.ordinal]
            default: values[property.ordinal]
            }
        }
        set {
            if property == .path { if let s = newValue?.text { path = MediaPath(s) }; return }
            values[property.ordinal] = newValue.flatMap { $0.coerced(to: property.spec.type) }
        }
    }

    /// The values of `property`: for a multi-valued one (artist, albumArtist, genre, composer) its text split
    /// at `MediaProperty.valueSeparator` ("Rock; Jazz" → ["Rock", "Jazz"]), else the one value as text;
    /// [] when it has none. Comparisons on a multi-valued property test each of these.
    public func values(of property: MediaProperty) -> [String] {
        guard let v = self[property] else { return [] }
        let text = v.text ?? v.description
        guard property.spec.multiValued else { return [text] }
        return MediaProperty.splitValues(text)
    }

    /// Properties with a value, in table order.
    public var setProperties: [MediaProperty] { MediaProperty.allCases.filter { self[$0] != nil } }

    // Typed accessors (MPMediaItem names).
    public var persistentID: Int64 { get { self[.persistentID]?.integer ?? 0 } set { self[.persistentID] = .integer(newValue) } }
    public var mediaType: MediaType {
        get { MediaType(rawValue: self[.mediaType]?.integer ?? 0) }
        set { self[.mediaType] = .integer(newValue.rawValue) }
    }
    public var title: String? { get { self[.title]?.text } set { self[.title] = newValue.map(MediaValue.text) } }
    public var albumTitle: String? { get { self[.albumTitle]?.text } set { self[.albumTitle] = newValue.map(MediaValue.text) } }
    public var artist: String? { get { self[.artist]?.text } set { self[.artist] = newValue.map(MediaValue.text) } }
    public var albumArtist: String? { get { self[.albumArtist]?.text } set { self[.albumArtist] = newValue.map(MediaValue.text) } }
    public var genre: String? { get { self[.genre]?.text } set { self[.genre] = newValue.map(MediaValue.text) } }
    public var composer: String? { get { self[.composer]?.text } set { self[.composer] = newValue.map(MediaValue.text) } }
    public var playbackDuration: Double { get { self[.playbackDuration]?.real ?? 0 } set { self[.playbackDuration] = .real(newValue) } }
    public var albumTrackNumber: Int { Int(self[.albumTrackNumber]?.integer ?? 0) }
    public var discNumber: Int { Int(self[.discNumber]?.integer ?? 0) }
    /// The rating the user gave in mlib (0–5), without the tag's fallback; nil when they gave none.
    public var userRating: Int64? { values[MediaProperty.rating.ordinal]?.integer }
    public var playCount: Int { Int(self[.playCount]?.integer ?? 0) }
    public var fileSize: Int64 { self[.fileSize]?.integer ?? 0 }

    /// Title for display: the tag, else the file name.
    public var displayTitle: String { title ?? lastComponentName }
    var lastComponentName: String { path.lastComponent.string }
}
