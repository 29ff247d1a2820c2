import Library
import MediaModel

extension ViewSchema {
    /// What the DLNA server keeps of each item in the view (`MediaTree.Slot` numbers them from the offset
    /// where they sit in a view shared with the MPD and Subsonic servers).
    static let dlna = ViewSchema(slots: [
        .init("dlna.title", multiValued: false, reading: [.title]) { $0.title },
        .init("dlna.artist", multiValued: false, reading: [.artist]) { $0.artist },
        .init("dlna.albumArtist", multiValued: false, reading: [.albumArtist, .artist]) { $0.albumArtist ?? $0.artist },
        .init("dlna.album", multiValued: false, reading: [.albumTitle]) { $0.albumTitle },
        .init("dlna.genre", multiValued: true, reading: [.genre]) { $0.genre },
        // ISO 8601 as DIDL's dc:date wants it: the release date, or the year's first day.
        .init("dlna.date", multiValued: false, reading: [.releaseDate, .year]) { item in
            if let date = item[.releaseDate]?.text, date.count >= 4 {
                return date.count == 4 ? date + "-01-01" : date.count == 7 ? date + "-01" : String(date.prefix(10))
            }
            return item[.year]?.integer.map { String(format: "%04d-01-01", Int($0)) }
        },
        .init("dlna.track", multiValued: false, reading: [.albumTrackNumber]) { $0[.albumTrackNumber]?.integer.map { String($0) } },
        .init("dlna.disc", multiValued: false, reading: [.discNumber]) { $0[.discNumber]?.integer.map { String($0) } },
        .init("dlna.size", multiValued: false, reading: [.fileSize]) { String($0.fileSize) },
        .init("dlna.bitRate", multiValued: false, reading: [.bitRate]) { $0[.bitRate]?.integer.map { String($0) } },
        .init("dlna.sampleRate", multiValued: false, reading: [.sampleRate]) { $0[.sampleRate]?.integer.map { String($0) } },
        .init("dlna.channels", multiValued: false, reading: [.channels]) { $0[.channels]?.integer.map { String($0) } },
        .init("dlna.bitDepth", multiValued: false, reading: [.bitDepth]) { $0[.bitDepth]?.integer.map { String($0) } },
        .init("dlna.resolution", multiValued: false, reading: [.width, .height]) { item in
            guard let w = item[.width]?.integer, let h = item[.height]?.integer, w > 0, h > 0 else { return nil }
            return "\(w)x\(h)"
        },
        .init("dlna.added", multiValued: false, reading: [.dateAdded, .modificationDate]) { ($0[.dateAdded]?.real ?? $0[.modificationDate]?.real).map { String(Int64($0)) } },
        .init("dlna.video", multiValued: false, reading: [.mediaType]) { $0.mediaType.rawValue & MediaType.anyVideo.rawValue != 0 ? "1" : nil },
        .init("dlna.container", multiValued: false, reading: [.container]) { $0[.container]?.text },
        .init("dlna.audioCodec", multiValued: false, reading: [.audioCodec]) { $0[.audioCodec]?.text },
        .init("dlna.videoCodec", multiValued: false, reading: [.videoCodec]) { $0[.videoCodec]?.text },
        .init("dlna.art", multiValued: false, reading: [.hasArtwork]) { $0[.hasArtwork]?.bool == true ? "1" : nil },
        .init("dlna.extension", multiValued: false, reading: []) { item in
            let name = item.path.lastComponent.string
            return name.lastIndex(of: ".").map { String(name[name.index(after: $0)...]).lowercased() }
        },
    ], properties: [])
}
