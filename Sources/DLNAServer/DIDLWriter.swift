import Foundation
import Library

/// DIDL-Lite (ContentDirectory:1, appendix; DLNA Guidelines 7.4.1.3) for a page of tree objects: containers
/// with their class and child count, items with their metadata and one `res` per file, art as
/// `upnp:albumArtURI` with its DLNA profile.
struct DIDLWriter {
    let tree: MediaTree
    /// `http://address:port` as the client reached this server (so every URL works from where it asked).
    let baseURL: String
    let covers: CoverLookup

    static let header = "<DIDL-Lite xmlns=\"urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
        + "xmlns:upnp=\"urn:schemas-upnp-org:metadata-1-0/upnp/\" xmlns:dlna=\"urn:schemas-dlna-org:metadata-1-0/\">"

    func document(_ objects: some Sequence<TreeObject>) -> String {
        var out = Self.header
        for object in objects { write(object, to: &out) }
        return out + "</DIDL-Lite>"
    }

    private func element(_ name: String, _ value: String?, to out: inout String) {
        guard let value, !value.isEmpty else { return }
        out += "<\(name)>\(XML.escape(value))</\(name)>"
    }

    func artURL(_ item: Int32) -> String { "\(baseURL)/art/\(tree.view.ids[Int(item)]).jpg" }

    func streamURL(_ item: Int32) -> String {
        let ext = tree.value(item, MediaTree.Slot.fileExtension).map { "." + $0 } ?? ""
        return "\(baseURL)/media/\(tree.view.ids[Int(item)])\(ext)"
    }

    func profile(_ item: Int32) -> MediaProfile {
        MediaProfile.of(container: tree.value(item, MediaTree.Slot.container), audioCodec: tree.value(item, MediaTree.Slot.audioCodec),
                        videoCodec: tree.value(item, MediaTree.Slot.videoCodec), fileExtension: tree.value(item, MediaTree.Slot.fileExtension),
                        resolution: tree.value(item, MediaTree.Slot.resolution), isVideo: tree.value(item, MediaTree.Slot.video) != nil)
    }

    private func write(_ object: TreeObject, to out: inout String) {
        switch object {
        case .container(let c):
            out += "<container id=\"\(XML.escape(c.id))\" parentID=\"\(XML.escape(c.parentID))\" restricted=\"1\" searchable=\"1\" childCount=\"\(c.childCount)\">"
            element("dc:title", c.title, to: &out)
            if let artist = c.artist {
                element("upnp:artist", artist, to: &out)
                element("dc:creator", artist, to: &out)
            }
            out += "<upnp:class>\(c.upnpClass)</upnp:class>"
            if let art = c.artItem, tree.hasArt(art, covers: covers) { out += "<upnp:albumArtURI dlna:profileID=\"JPEG_TN\">\(XML.escape(artURL(art)))</upnp:albumArtURI>" }
            out += "</container>"
        case .item(let id, let parentID, let item):
            let isVideo = tree.value(item, MediaTree.Slot.video) != nil
            out += "<item id=\"\(XML.escape(id))\" parentID=\"\(XML.escape(parentID))\" restricted=\"1\">"
            element("dc:title", tree.title(item), to: &out)
            let artist = tree.value(item, MediaTree.Slot.artist)
            element("dc:creator", artist, to: &out)
            element("upnp:artist", artist, to: &out)
            element("upnp:album", tree.value(item, MediaTree.Slot.album), to: &out)
            let genreSlot = tree.base + MediaTree.Slot.genre
            let genre = tree.view.cell(item, slot: genreSlot)
            if genre != 0 {
                for part in tree.view.parts(genre, slot: genreSlot) { element("upnp:genre", tree.view.string(part, slot: genreSlot), to: &out) }
            }
            element("upnp:originalTrackNumber", tree.value(item, MediaTree.Slot.track), to: &out)
            element("dc:date", tree.value(item, MediaTree.Slot.date), to: &out)
            if !isVideo && tree.hasArt(item, covers: covers) { out += "<upnp:albumArtURI dlna:profileID=\"JPEG_TN\">\(XML.escape(artURL(item)))</upnp:albumArtURI>" }
            out += "<upnp:class>\(isVideo ? "object.item.videoItem" : "object.item.audioItem.musicTrack")</upnp:class>"
            out += "<res protocolInfo=\"\(XML.escape(profile(item).protocolInfo))\""
            let duration = tree.view.durations[Int(item)]
            if duration.isFinite, duration > 0 { out += " duration=\"\(Self.duration(duration))\"" }
            if let size = tree.value(item, MediaTree.Slot.size) { out += " size=\"\(size)\"" }
            // DIDL's bitrate is in bytes per second.
            if let bits = tree.value(item, MediaTree.Slot.bitRate).flatMap({ Int($0) }) { out += " bitrate=\"\(bits / 8)\"" }
            if let rate = tree.value(item, MediaTree.Slot.sampleRate) { out += " sampleFrequency=\"\(rate)\"" }
            if let channels = tree.value(item, MediaTree.Slot.channels) { out += " nrAudioChannels=\"\(channels)\"" }
            if let depth = tree.value(item, MediaTree.Slot.bitDepth) { out += " bitsPerSample=\"\(depth)\"" }
            if let resolution = tree.value(item, MediaTree.Slot.resolution) { out += " resolution=\"\(resolution)\"" }
            out += ">\(XML.escape(streamURL(item)))</res></item>"
        }
    }

    /// H+:MM:SS.FFF (ContentDirectory:1, `res@duration`).
    static func duration(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let s = milliseconds / 1000
        return String(format: "%d:%02d:%02d.%03d", s / 3600, s / 60 % 60, s % 60, milliseconds % 1000)
    }
}
