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
    func document(_ objects: some Sequence<TreeObject>) throws(NeedsDisk) -> DIDLPage {
        var out = DIDLOutput(capacity: objects.underestimatedCount * 1_400 + 512)
        out += M.header
        let bodies = tree.itemBodies.store(for: ItemBodies.Variant(baseURL: baseURL, renderer: renderer))
        var kept = bodies.bodies(of: objects).makeIterator()
        for object in objects {
            let body: [UInt8]? = if case .item = object { kept.next() ?? nil } else { nil }
            try write(object, to: &out, bodies: bodies, kept: body)
        }
        out += M.end
        return out.finish()
    }

    /// An element's two tags, in the answer's form (`DIDLOutput.Markup`).
    struct Element {
        let open: Markup, close: Markup
        init(_ name: String) {
            open = Markup("<\(name)>")
            close = Markup("</\(name)>")
        }
    }

    typealias Markup = DIDLOutput.Markup

    /// The page's fixed markup, made once (`DIDLOutput.Markup`).
    private enum M {
        static let header = Markup(DIDLWriter.header), end = Markup("</DIDL-Lite>")
        static let title = Element("dc:title"), creator = Element("dc:creator"), artist = Element("upnp:artist")
        static let album = Element("upnp:album"), genre = Element("upnp:genre"), track = Element("upnp:originalTrackNumber")
        static let date = Element("dc:date"), upnpClass = Element("upnp:class")
        static let art = Markup("<upnp:albumArtURI dlna:profileID=\"JPEG_TN\">"), artClose = Markup("</upnp:albumArtURI>")
        static let containerID = Markup("<container id=\""), itemID = Markup("<item id=\""), parentID = Markup("\" parentID=\"")
        static let childCount = Markup("\" restricted=\"1\" searchable=\"1\" childCount=\""), tagEnd = Markup("\">")
        static let itemRest = Markup("\" restricted=\"1\">"), itemMark = Markup("$i")
        static let containerEnd = Markup("</container>"), itemEnd = Markup("</item>")
        static let musicTrack = Markup("<upnp:class>object.item.audioItem.musicTrack</upnp:class>")
        static let videoItem = Markup("<upnp:class>object.item.videoItem</upnp:class>")
        static let res = Markup("<res protocolInfo=\""), quote = Markup("\""), resText = Markup(">"), resEnd = Markup("</res>")
        static let duration = Markup(" duration=\""), size = Markup(" size=\""), bitRate = Markup(" bitrate=\"")
        static let sampleRate = Markup(" sampleFrequency=\""), channels = Markup(" nrAudioChannels=\"")
        static let bitDepth = Markup(" bitsPerSample=\""), resolution = Markup(" resolution=\"")
        static let sixteenBits = Markup(" bitsPerSample=\"16\"")
    }

    /// `element`'s tags around `value` escaped onto `out`; nothing for no value.
    private func element(_ element: Element, _ value: String?, to out: inout DIDLOutput) {
        guard let value, !value.isEmpty else { return }
        out.wrap(element.open, value, element.close)
    }

    /// ` name="value"` for a value there is.
    private func attribute(_ name: Markup, _ value: String?, to out: inout DIDLOutput) {
        guard let value else { return }
        out.wrap(name, value, M.quote)
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

    /// `object`'s element; `kept`: an item's body kept already (`ItemBodies`).
    private func write(_ object: TreeObject, to out: inout DIDLOutput, bodies: ItemBodies.Store, kept: [UInt8]?) throws(NeedsDisk) {
        switch object {
        case .container(let c):
            out += M.containerID
            out.id(c.id)
            out += M.parentID
            out.id(c.parentID)
            out.wrap(M.childCount, String(c.childCount), M.tagEnd)
            element(M.title, c.title, to: &out)
            if let artist = c.artist {
                element(M.artist, artist, to: &out)
                element(M.creator, artist, to: &out)
            }
            element(M.upnpClass, c.upnpClass, to: &out)
            if let art = c.artItem, try tree.hasArt(art, covers: covers) { out.wrap(M.art, artURL(art), M.artClose) }
            out += M.containerEnd
        case .item(let parentID, let persistentID, let item):
            // The id from its parts (`ObjectID.item`): the container's id, `$i`, the item's.
            out += M.itemID
            out.parentID(parentID)
            out += M.itemMark
            out.number(persistentID)
            out += M.parentID
            out.parentID(parentID)
            out += M.itemRest
            if let body = kept {
                out.append(escaped: body)
            } else {
                let start = out.count
                let isVideo = try writeBody(item, to: &out)
                if !isVideo { bodies.keep(out.bytes(from: start), for: item) }
            }
            out += M.itemEnd
        }
    }

    /// An item's elements; whether it is a video.
    private func writeBody(_ item: Int32, to out: inout DIDLOutput) throws(NeedsDisk) -> Bool {
        let isVideo = tree.value(item, MediaTree.Slot.video) != nil
        element(M.title, tree.title(item), to: &out)
        let artist = tree.value(item, MediaTree.Slot.artist)
        element(M.creator, artist, to: &out)
        element(M.artist, artist, to: &out)
        element(M.album, tree.value(item, MediaTree.Slot.album), to: &out)
        let genreSlot = tree.base + MediaTree.Slot.genre
        let genre = tree.view.cell(item, slot: genreSlot)
        if genre != 0 {
            for part in tree.view.parts(genre, slot: genreSlot) { element(M.genre, tree.view.string(part, slot: genreSlot), to: &out) }
        }
        element(M.track, tree.value(item, MediaTree.Slot.track), to: &out)
        element(M.date, tree.value(item, MediaTree.Slot.date), to: &out)
        if !isVideo, try tree.hasArt(item, covers: covers) { out.wrap(M.art, artURL(item), M.artClose) }
        // A video's still is made from a frame when first asked for (`/thumb/`): offered for every video,
        // as albumArtURI (what most TVs show) and as a JPEG_TN `res` (what the DLNA guidelines name).
        if isVideo { out.wrap(M.art, thumbnailURL(item), M.artClose) }
        // Samsung's caption element is a property: before upnp:class, where the DIDL-Lite schema allows other
        // namespaces' elements.
        if isVideo && covers == nil { throw NeedsDisk() }
        let hasSubtitles = isVideo && Subtitles.sidecar(of: tree.view.paths[Int(item)].string) != nil
        if hasSubtitles { out += "<sec:CaptionInfoEx sec:type=\"srt\">\(XML.escape(subtitleURL(item)))</sec:CaptionInfoEx>" }
        out += isVideo ? M.videoItem : M.musicTrack
        let placement = isVideo ? .none : renderer.placement(codec: tree.value(item, MediaTree.Slot.audioCodec))
        if placement == .before { writeTranscodes(item, to: &out) }
        out += M.res
        out.append(escaped: protocolInfo(profile(item)))
        out += M.quote
        let duration = tree.view.durations[Int(item)]
        writeDuration(duration, to: &out)
        attribute(M.size, tree.value(item, MediaTree.Slot.size), to: &out)
        // DIDL's bitrate is in bytes per second.
        attribute(M.bitRate, tree.value(item, MediaTree.Slot.bitRate).flatMap { Int($0) }.map { String($0 / 8) }, to: &out)
        attribute(M.sampleRate, tree.value(item, MediaTree.Slot.sampleRate), to: &out)
        attribute(M.channels, tree.value(item, MediaTree.Slot.channels), to: &out)
        attribute(M.bitDepth, tree.value(item, MediaTree.Slot.bitDepth), to: &out)
        attribute(M.resolution, tree.value(item, MediaTree.Slot.resolution), to: &out)
        out.wrap(M.resText, streamURL(item), M.resEnd)
        if placement == .after { writeTranscodes(item, to: &out) }
        if isVideo { out += "<res protocolInfo=\"\(XML.escape(MediaProfile.Thumbnail.protocolInfo))\">\(XML.escape(thumbnailURL(item)))</res>" }
        if hasSubtitles { out += "<res protocolInfo=\"http-get:*:\(Subtitles.mimeType):*\">\(XML.escape(subtitleURL(item)))</res>" }
        return isVideo
    }

    private func writeDuration(_ duration: Double, to out: inout DIDLOutput) {
        if duration.isFinite, duration > 0 { out.wrap(M.duration, Self.duration(duration), M.quote) }
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

    func transcodeURL(_ item: Int32, _ format: TranscodeFormat) -> String {
        "\(baseURL)/transcode/\(tree.view.ids[Int(item)]).\(format.suffix)"
    }

    /// One `res` per transcode the renderer is offered: no size (it is not known before the end), the
    /// duration, and the output's bit rate, rate and channels.
    private func writeTranscodes(_ item: Int32, to out: inout DIDLOutput) {
        for format in renderer.alternatives {
            let shape = transcodeShape(item, format)
            let profile = MediaProfile.transcode(format, sampleRate: shape.rate, channels: shape.channels)
            out += M.res
            out.append(escaped: protocolInfo(profile))
            out += M.quote
            writeDuration(tree.view.durations[Int(item)], to: &out)
            let bits = format == .lpcm ? shape.rate * shape.channels * 16 : DLNAServer.mp3BitRate
            attribute(M.bitRate, String(bits / 8), to: &out)
            attribute(M.sampleRate, String(shape.rate), to: &out)
            attribute(M.channels, String(shape.channels), to: &out)
            if format == .lpcm { out += M.sixteenBits }
            out.wrap(M.resText, transcodeURL(item, format), M.resEnd)
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
