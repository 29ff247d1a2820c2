import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Apple Music / iTunes `Library.xml` ("Export Library…", or "Share iTunes Library XML with other
/// applications"): an XML property list (Apple's "Property List Programming Guide" and the plist DTD,
/// http://www.apple.com/DTDs/PropertyList-1.0.dtd) whose top dictionary's "Tracks" maps each track id to
/// a dictionary of "Name", "Artist", "Album", "Total Time" (ms), "Location" (a file:// URL), "Play Count",
/// "Skip Count", "Rating" (0–100, 20 a star; with "Rating Computed" true it is the album's, not the
/// track's, and is left out), "Loved" (true) and "Play Date UTC". Read with XMLParser, an event (SAX)
/// parser over a stream: memory stays that of one track however large the library.
public struct ITunesLibraryReader: UserDataReader {
    public let file: String
    public init(file: String) { self.file = file }

    public func read(_ body: (ImportedRecord) throws -> Void) throws {
        try UserDataImportError.requireReadable(file)
        guard let stream = InputStream(fileAtPath: file) else { throw UserDataImportError.unreadable(file: file, reason: "no such file") }
        try withoutActuallyEscaping(body) { body in
            let delegate = PlistTracks(body)
            let parser = XMLParser(stream: stream)
            parser.shouldResolveExternalEntities = false
            parser.delegate = delegate
            let parsed = parser.parse()
            if let error = delegate.bodyError { throw error }
            guard parsed else {
                let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "not XML"
                throw UserDataImportError.malformed(file: file, reason: "line \(parser.lineNumber): \(reason)")
            }
            // XMLParser over a stream (swift-corelibs-foundation) returns true for a document cut short:
            // a library without its closing </plist> is truncated, and none of it is imported.
            guard delegate.sawEnd else { throw UserDataImportError.malformed(file: file, reason: "it ends before its </plist> (truncated?)") }
            guard delegate.sawTracks else { throw UserDataImportError.malformed(file: file, reason: "no \"Tracks\" dictionary (not an iTunes library)") }
        }
    }
}

/// The parser's delegate: follows `plist > dict > Tracks > dict > (id, dict)` and hands each track's
/// dictionary, as a record, to `body`.
private final class PlistTracks: NSObject, XMLParserDelegate {
    let body: (ImportedRecord) throws -> Void
    var bodyError: (any Error)?
    var sawTracks = false
    var sawEnd = false

    private var dictDepth = 0
    private var tracksDepth: Int?          // depth of the "Tracks" dictionary, once open
    private var lastTopKey: String?
    private var text = ""
    private var collecting = false
    private var key: String?
    private var fields: [String: String] = [:]

    init(_ body: @escaping (ImportedRecord) throws -> Void) { self.body = body }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        switch name {
        case "dict":
            dictDepth += 1
            if dictDepth == 2, lastTopKey == "Tracks" { tracksDepth = 2; sawTracks = true }
            if let tracksDepth, dictDepth == tracksDepth + 1 { fields = [:] }
        case "true", "false":
            if inTrack, let key { fields[key] = name }
            key = nil
        default:
            text = ""
            collecting = true
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if collecting { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        collecting = false
        switch name {
        case "dict":
            if let tracksDepth, dictDepth == tracksDepth + 1 { emit(parser) }
            if let depth = tracksDepth, dictDepth == depth { tracksDepth = nil }
            dictDepth -= 1
        case "key":
            if dictDepth == 1 { lastTopKey = text }
            key = text
        case "plist":
            sawEnd = true
        case "true", "false", "array":
            break
        default:
            if inTrack, let key { fields[key] = text }
            if dictDepth == 1 { lastTopKey = nil }
            key = nil
        }
    }

    private var inTrack: Bool { tracksDepth.map { dictDepth == $0 + 1 } ?? false }

    private func emit(_ parser: XMLParser) {
        guard bodyError == nil else { return }
        let path = fields["Location"].flatMap { URL(string: $0) }.map { $0.isFileURL ? $0.path : $0.absoluteString }
        var record = ImportedRecord(track: ImportedTrack(
            path: path, artist: fields["Artist"], album: fields["Album"], title: fields["Name"],
            duration: fields["Total Time"].flatMap(Double.init).map { $0 / 1000 }))
        record.playCount = fields["Play Count"].flatMap { Int($0) }
        record.skipCount = fields["Skip Count"].flatMap { Int($0) }
        if fields["Rating Computed"] != "true" { record.rating = fields["Rating"].flatMap { Int($0) }.map(RatingScale.fromPercent) }
        record.loved = fields["Loved"] == "true"
        record.lastPlayed = fields["Play Date UTC"].flatMap(ImportDates.iso8601)
        do { try body(record) } catch { bodyError = error; parser.abortParsing() }
    }
}
