import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MediaModel

/// XSPF version 1 (http://xspf.org/ns/0/): `location` is a URI, `duration` in milliseconds, `creator` the artist.
enum XSPF {
    static let namespace = "http://xspf.org/ns/0/"

    static func writeHeader(title: String?, to out: inout ByteBuffer) {
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<playlist version=\"1\" xmlns=\"\(namespace)\">\n")
        if let title { element("title", title, indent: "  ", to: &out) }
        out.append("  <trackList>\n")
    }

    static func append(_ item: MediaItem, locations: PlaylistLocations, to out: inout ByteBuffer) {
        out.append("    <track>\n      <location>")
        locations.appendURILocation(item.path, to: &out)   // escaped URIs hold no XML specials
        out.append("</location>\n")
        let indent = "      "
        if let title = item.title { element("title", title, indent: indent, to: &out) }
        if let artist = item.artist { element("creator", artist, indent: indent, to: &out) }
        if let album = item.albumTitle { element("album", album, indent: indent, to: &out) }
        if item.albumTrackNumber > 0 { element("trackNum", String(item.albumTrackNumber), indent: indent, to: &out) }
        if let ms = milliseconds(item.playbackDuration) { element("duration", String(ms), indent: indent, to: &out) }
        out.append("    </track>\n")
    }

    static func writeFooter(to out: inout ByteBuffer) {
        out.append("  </trackList>\n</playlist>\n")
    }

    static func milliseconds(_ seconds: Double) -> Int64? {
        seconds > 0 && seconds.isFinite ? Int64((seconds * 1000).rounded()) : nil
    }

    private static func element(_ name: String, _ text: String, indent: String, to out: inout ByteBuffer) {
        out.append("\(indent)<\(name)>")
        out.append(xmlEscaped: text)
        out.append("</\(name)>\n")
    }

    /// Reads tracks with Foundation's XML parser: the first `location` of each `track`, `title`, `creator`,
    /// `album`, `duration` (ms). A malformed document is an error with its line number.
    static func read(_ bytes: [UInt8], base: MediaPath, path: String?) throws -> PlaylistDocument {
        let collector = Collector(base: base)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.delegate = collector
        let parsed = parser.parse()
        // Foundation on Linux accepts a truncated document, so unclosed elements are checked here.
        guard parsed, collector.sawPlaylist, collector.stack.isEmpty else {
            let why = !parsed ? "line \(parser.lineNumber): \(parser.parserError?.localizedDescription ?? "syntax error")"
                : !collector.sawPlaylist ? "no <playlist> element"
                : "line \(parser.lineNumber): document ends inside <\(collector.stack.last!)>"
            throw PlaylistError(path: path, "not a valid XSPF playlist (\(why))")
        }
        return collector.document
    }

    private final class Collector: NSObject, XMLParserDelegate {
        let base: MediaPath
        var document = PlaylistDocument(entries: [])
        var sawPlaylist = false
        var stack: [String] = []
        var text = ""
        var track: PlaylistEntry?

        init(base: MediaPath) { self.base = base }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            if name == "playlist", stack.isEmpty { sawPlaylist = true }
            if name == "track", stack.last == "trackList" { track = PlaylistEntry(location: .remote("")) }
            stack.append(name)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            text = ""
            if stack.last == "track", track != nil {
                switch name {
                case "location" where track!.location == .remote(""):
                    track!.location = EntryLocation.fromURI(Array(value.utf8), base: base)
                case "title": track!.title = value
                case "creator": track!.artist = value
                case "album": track!.album = value
                case "duration": track!.duration = Double(value).map { $0 / 1000 }
                default: break
                }
            } else if name == "track", let t = track {
                if t.location != .remote("") { document.entries.append(t) }
                track = nil
            } else if name == "title", stack == ["playlist"] {
                document.title = value
            }
        }
    }
}
