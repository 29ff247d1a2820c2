import Library
import MediaModel

extension ViewSchema {
    /// What the DLNA server keeps of each item in the view (`MediaTree.Slot` numbers them from the offset
    /// where they sit in a view shared with the MPD and Subsonic servers).
    static let dlna = ViewSchema(slots: [
        .init("dlna.title", multiValued: false) { $0.title },
        .init("dlna.artist", multiValued: false) { $0.artist },
        .init("dlna.albumArtist", multiValued: false) { $0.albumArtist ?? $0.artist },
        .init("dlna.album", multiValued: false) { $0.albumTitle },
        .init("dlna.genre", multiValued: true) { $0.genre },
        // ISO 8601 as DIDL's dc:date wants it: the release date, or the year's first day.
        .init("dlna.date", multiValued: false) { item in
            if let date = item[.releaseDate]?.text, date.count >= 4 {
                return date.count == 4 ? date + "-01-01" : date.count == 7 ? date + "-01" : String(date.prefix(10))
            }
            return item[.year]?.integer.map { String(format: "%04d-01-01", Int($0)) }
        },
        .init("dlna.track", multiValued: false) { $0[.albumTrackNumber]?.integer.map { String($0) } },
        .init("dlna.disc", multiValued: false) { $0[.discNumber]?.integer.map { String($0) } },
        .init("dlna.size", multiValued: false) { String($0.fileSize) },
        .init("dlna.bitRate", multiValued: false) { $0[.bitRate]?.integer.map { String($0) } },
        .init("dlna.sampleRate", multiValued: false) { $0[.sampleRate]?.integer.map { String($0) } },
        .init("dlna.channels", multiValued: false) { $0[.channels]?.integer.map { String($0) } },
        .init("dlna.bitDepth", multiValued: false) { $0[.bitDepth]?.integer.map { String($0) } },
        .init("dlna.resolution", multiValued: false) { item in
            guard let w = item[.width]?.integer, let h = item[.height]?.integer, w > 0, h > 0 else { return nil }
            return "\(w)x\(h)"
        },
        .init("dlna.added", multiValued: false) { ($0[.dateAdded]?.real ?? $0[.modificationDate]?.real).map { String(Int64($0)) } },
        .init("dlna.video", multiValued: false) { $0.mediaType.rawValue & MediaType.anyVideo.rawValue != 0 ? "1" : nil },
        .init("dlna.container", multiValued: false) { $0[.container]?.text },
        .init("dlna.audioCodec", multiValued: false) { $0[.audioCodec]?.text },
        .init("dlna.videoCodec", multiValued: false) { $0[.videoCodec]?.text },
        .init("dlna.art", multiValued: false) { $0[.hasArtwork]?.bool == true ? "1" : nil },
        .init("dlna.extension", multiValued: false) { item in
            let name = item.path.lastComponent.string
            return name.lastIndex(of: ".").map { String(name[name.index(after: $0)...]).lowercased() }
        },
    ], properties: [])
}
