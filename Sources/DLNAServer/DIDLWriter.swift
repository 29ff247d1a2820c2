import Foundation
import Library
import MediaDecode

/// DIDL-Lite (ContentDirectory:1, appendix; DLNA Guidelines 7.4.1.3) for a page of tree objects: containers
/// with their class and child count, items with their metadata and one `res` per file, art as
/// `upnp:albumArtURI` with its DLNA profile.
struct DIDLWriter {
    let tree: MediaTree
    /// `http://address:port` as the client reached this server (so every URL works from where it asked).
    let baseURL: String
    /// Where folder covers are looked up; nil for an answer made on the event loop (`DLNAServer.answerOnLoop`),
    /// which reads no disk: a cover not known yet, or a video's subtitles, throw `NeedsDisk` instead.
    let covers: CoverLookup?
    /// What the asking renderer plays (its `User-Agent`): which audio items get transcoded `res`, and where.
    var renderer: RendererProfile = .standard
    /// Each profile's `protocolInfo`, escaped (twice: `DIDLOutput`), made once a page: a page's items share a
    /// few profiles, and making the text (DLNA's flags, an LPCM rate) for every `res` was a tenth of a Browse's CPU.
    private let protocolInfos = ProtocolInfos()

    private final class ProtocolInfos {
        var escaped: [MediaProfile: [UInt8]] = [:]
    }

    private func protocolInfo(_ profile: MediaProfile) -> [UInt8] {
        if let known = protocolInfos.escaped[profile] { return known }
        var bytes: [UInt8] = []
        XMLText.escapeTwice(profile.protocolInfo, into: &bytes)
        protocolInfos.escaped[profile] = bytes
        return bytes
    }

    static let header = "<DIDL-Lite xmlns=\"urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
        + "xmlns:upnp=\"urn:schemas-upnp-org:metadata-1-0/upnp/\" xmlns:dlna=\"urn:schemas-dlna-org:metadata-1-0/\" "
        + "xmlns:sec=\"http://www.sec.co.kr/\">"

    /// The page as the text of a SOAP `Result` (escaped: `DIDLOutput`).
    func document(_ objects: some Sequence<TreeObject>) throws(NeedsDisk) -> [UInt8] {
        var out = DIDLOutput(capacity: objects.underestimatedCount * 1_400 + 512)
        out += Self.header
        for object in objects { try write(object, to: &out) }
        out += "</DIDL-Lite>"
        return out.bytes
    }

    /// Pieces appended one by one, the value escaped straight onto `out`: an interpolated string made a
    /// temporary string per element (a page's DIDL-Lite is most of a Browse's CPU).
    private func element(_ name: String, _ value: String?, to out: inout DIDLOutput) {
        guard let value, !value.isEmpty else { return }
        out += "<"
        out += name
        out += ">"
        out.text(value)
        out += "</"
        out += name
        out += ">"
    }

    /// `open`, `text` escaped onto `out`, `close` (a URL between its tags, an attribute's value).
    private func link(_ open: String, _ url: String, _ close: String, to out: inout DIDLOutput) {
        out += open
        out.text(url)
        out += close
    }

    func artURL(_ item: Int32) -> String { "\(baseURL)/art/\(tree.view.ids[Int(item)]).jpg" }
    func thumbnailURL(_ item: Int32) -> String { "\(baseURL)/thumb/\(tree.view.ids[Int(item)]).jpg" }
    func subtitleURL(_ item: Int32) -> String { "\(baseURL)/subtitle/\(tree.view.ids[Int(item)]).srt" }

    func streamURL(_ item: Int32) -> String {
        let ext = tree.value(item, MediaTree.Slot.fileExtension).map { "." + $0 } ?? ""
        return "\(baseURL)/media/\(tree.view.ids[Int(item)])\(ext)"
    }

    func profile(_ item: Int32) -> MediaProfile {
        MediaProfile.of(container: tree.value(item, MediaTree.Slot.container), audioCodec: tree.value(item, MediaTree.Slot.audioCodec),
                        videoCodec: tree.value(item, MediaTree.Slot.videoCodec), fileExtension: tree.value(item, MediaTree.Slot.fileExtension),
                        resolution: tree.value(item, MediaTree.Slot.resolution), isVideo: tree.value(item, MediaTree.Slot.video) != nil)
    }

    private func write(_ object: TreeObject, to out: inout DIDLOutput) throws(NeedsDisk) {
        switch object {
        case .container(let c):
            link("<container id=\"", c.id, "\" parentID=\"", to: &out)
            out.text(c.parentID)
            out += "\" restricted=\"1\" searchable=\"1\" childCount=\""
            out += String(c.childCount)
            out += "\">"
            element("dc:title", c.title, to: &out)
            if let artist = c.artist {
                element("upnp:artist", artist, to: &out)
                element("dc:creator", artist, to: &out)
            }
            out += "<upnp:class>\(c.upnpClass)</upnp:class>"
            if let art = c.artItem, try tree.hasArt(art, covers: covers) { link(Self.artOpen, artURL(art), Self.artClose, to: &out) }
            out += "</container>"
        case .item(let id, let parentID, let item):
            let isVideo = tree.value(item, MediaTree.Slot.video) != nil
            link("<item id=\"", id, "\" parentID=\"", to: &out)
            out.text(parentID)
            out += "\" restricted=\"1\">"
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
            if !isVideo, try tree.hasArt(item, covers: covers) { link(Self.artOpen, artURL(item), Self.artClose, to: &out) }
            // A video's still is made from a frame when first asked for (`/thumb/`): offered for every video,
            // as albumArtURI (what most TVs show) and as a JPEG_TN `res` (what the DLNA guidelines name).
            if isVideo { link(Self.artOpen, thumbnailURL(item), Self.artClose, to: &out) }
            // Samsung's caption element is a property: before upnp:class, where the DIDL-Lite schema allows other
            // namespaces' elements.
            if isVideo && covers == nil { throw NeedsDisk() }
            let hasSubtitles = isVideo && Subtitles.sidecar(of: tree.view.paths[Int(item)].string) != nil
            if hasSubtitles { out += "<sec:CaptionInfoEx sec:type=\"srt\">\(XML.escape(subtitleURL(item)))</sec:CaptionInfoEx>" }
            out += "<upnp:class>\(isVideo ? "object.item.videoItem" : "object.item.audioItem.musicTrack")</upnp:class>"
            let placement = isVideo ? .none : renderer.placement(codec: tree.value(item, MediaTree.Slot.audioCodec))
            if placement == .before { writeTranscodes(item, to: &out) }
            out += "<res protocolInfo=\""
            out.append(escaped: protocolInfo(profile(item)))
            out += "\""
            let duration = tree.view.durations[Int(item)]
            writeDuration(duration, to: &out)
            if let size = tree.value(item, MediaTree.Slot.size) { out += " size=\"\(size)\"" }
            // DIDL's bitrate is in bytes per second.
            if let bits = tree.value(item, MediaTree.Slot.bitRate).flatMap({ Int($0) }) { out += " bitrate=\"\(bits / 8)\"" }
            if let rate = tree.value(item, MediaTree.Slot.sampleRate) { out += " sampleFrequency=\"\(rate)\"" }
            if let channels = tree.value(item, MediaTree.Slot.channels) { out += " nrAudioChannels=\"\(channels)\"" }
            if let depth = tree.value(item, MediaTree.Slot.bitDepth) { out += " bitsPerSample=\"\(depth)\"" }
            if let resolution = tree.value(item, MediaTree.Slot.resolution) { out += " resolution=\"\(resolution)\"" }
            link(">", streamURL(item), "</res>", to: &out)
            if placement == .after { writeTranscodes(item, to: &out) }
            if isVideo { out += "<res protocolInfo=\"\(XML.escape(MediaProfile.Thumbnail.protocolInfo))\">\(XML.escape(thumbnailURL(item)))</res>" }
            if hasSubtitles { out += "<res protocolInfo=\"http-get:*:\(Subtitles.mimeType):*\">\(XML.escape(subtitleURL(item)))</res>" }
            out += "</item>"
        }
    }

    private func writeDuration(_ duration: Double, to out: inout DIDLOutput) {
        if duration.isFinite, duration > 0 { out += " duration=\"\(Self.duration(duration))\"" }
    }

    /// What the transcoder makes of an audio item: its rate and channels (LPCM at 44.1 or 48 kHz; MP3 keeps
    /// the source's rate where LAME takes it), at most two channels.
    func transcodeShape(_ item: Int32, _ format: TranscodeFormat) -> (rate: Int, channels: Int) {
        let source = tree.value(item, MediaTree.Slot.sampleRate).flatMap { Int($0) } ?? 44_100
        let channels = min(2, max(1, tree.value(item, MediaTree.Slot.channels).flatMap { Int($0) } ?? 2))
        return (format == .lpcm ? Transcoder.lpcmRate(source: source) : Self.mp3Rates.contains(source) ? source : 44_100, channels)
    }

    /// LAME's rates (MPEG-1, 2 and 2.5); the transcoder picks 44.1 kHz for any other.
    private static let mp3Rates: Set = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]
    private static let artOpen = "<upnp:albumArtURI dlna:profileID=\"JPEG_TN\">", artClose = "</upnp:albumArtURI>"

    func transcodeURL(_ item: Int32, _ format: TranscodeFormat) -> String {
        "\(baseURL)/transcode/\(tree.view.ids[Int(item)]).\(format.suffix)"
    }

    /// One `res` per transcode the renderer is offered: no size (it is not known before the end), the
    /// duration, and the output's bit rate, rate and channels.
    private func writeTranscodes(_ item: Int32, to out: inout DIDLOutput) {
        for format in renderer.alternatives {
            let shape = transcodeShape(item, format)
            let profile = MediaProfile.transcode(format, sampleRate: shape.rate, channels: shape.channels)
            out += "<res protocolInfo=\""
            out.append(escaped: protocolInfo(profile))
            out += "\""
            writeDuration(tree.view.durations[Int(item)], to: &out)
            let bits = format == .lpcm ? shape.rate * shape.channels * 16 : DLNAServer.mp3BitRate
            out += " bitrate=\"\(bits / 8)\" sampleFrequency=\"\(shape.rate)\" nrAudioChannels=\"\(shape.channels)\""
            if format == .lpcm { out += " bitsPerSample=\"16\"" }
            link(">", transcodeURL(item, format), "</res>", to: &out)
        }
    }

    /// H+:MM:SS.FFF (ContentDirectory:1, `res@duration`). Written digit by digit: through `String(format:)`
    /// (Foundation's varargs formatter) it was a seventh of a Browse's CPU, two or three times an item.
    static func duration(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let s = milliseconds / 1000
        func padded(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return "\(s / 3600):\(padded(s / 60 % 60, 2)):\(padded(s % 60, 2)).\(padded(milliseconds % 1000, 3))"
    }
}
