import Foundation
import TestSupport
import Testing

/// Every XML answer a control point gets, validated: the DIDL-Lite `Result` of BrowseMetadata and
/// BrowseDirectChildren of every container and every item of the tree, and of Search, against the UPnP
/// Forum's DIDL-Lite v2 schema (with its upnp, av, Dublin Core and xml imports) by `xmllint --schema`; the
/// device description and SCPDs for well-formedness and their root (no copy of the UPnP device-1-0 and
/// service-1-0 schemas is at hand: Fixtures/README.md says where the schemas come from). The library holds a
/// file whose title and artist carry control characters (U+0001, U+0002), so an answer holding them is
/// checked too. The answers are saved as sent by `Scripts/dlna_dump.py` (plain urllib) from the other
/// namespace.
/// Where Debian's libgupnp-av-1.0-3 installs the UPnP Forum's AV schemas.
private let upnpSchemas = "/usr/share/gupnp-av"

@Suite(.serialized,
       .enabled(if: VethLab.unavailableReason == nil, Comment(rawValue: VethLab.unavailableReason ?? "")),
       .enabled(if: FileManager.default.isReadableFile(atPath: upnpSchemas + "/didl-lite-v2.xsd")
                    && FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint"),
                "the UPnP schemas (libgupnp-av-1.0-3, /usr/share/gupnp-av) or xmllint missing (scripts/install-deps.sh)"))
struct DLNASchemaTests {
    static let schemas = upnpSchemas

    /// The schemas import each other by their upnp.org, dublincore.org and w3.org addresses: a catalog maps
    /// those to the local copies, and `--nonet` makes sure nothing is fetched.
    static func catalog(in directory: URL) throws -> URL {
        let map = ["http://www.upnp.org/schemas/av/upnp.xsd": "upnp.xsd", "http://www.upnp.org/schemas/av/av.xsd": "av.xsd",
                   "http://dublincore.org/schemas/xmls/simpledc20021212.xsd": "simpledc20021212.xsd",
                   "http://www.w3.org/2001/03/xml.xsd": "xml.xsd"]
        let entries = map.sorted { $0.key < $1.key }.map { remote, local in
            "<system systemId=\"\(remote)\" uri=\"file://\(schemas)/\(local)\"/><uri name=\"\(remote)\" uri=\"file://\(schemas)/\(local)\"/>"
        }.joined(separator: "\n")
        let url = directory.appendingPathComponent("catalog.xml")
        try """
            <?xml version="1.0"?>
            <catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
            \(entries)
            </catalog>
            """.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test
    func everyDescriptionAndDIDLLiteAnswerValidates() throws {
        let scratch = try ScratchLibrary("mlib-dlna-xsd")
        defer { scratch.remove() }
        let base = scratch.base, music = scratch.media, dump = base.appendingPathComponent("dump")
        for name in DLNAClientTests.fixtures { try scratch.copyFixture(name, as: "sub/\(name)") }
        // A sidecar .srt beside the video: its res and Samsung's sec:CaptionInfoEx are in the answers validated.
        try "1\n00:00:00,000 --> 00:00:01,000\nA caption\n".write(to: music.appendingPathComponent("sub/video-h264-aac.srt"), atomically: true, encoding: .utf8)
        // Control characters in tags: XML 1.0 allows none of these, escaped or not.
        let make = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=d=1", "-metadata", "title=Bell\u{01}s & <Whistles>",
                                                   "-metadata", "artist=Ctl\u{02} Band", "-metadata", "album=Odd \"Tags\"",
                                                   music.appendingPathComponent("control.mp3").path])
        #expect(make.status == 0, "\(make.stderr)")
        try scratch.scan()
        let environment = scratch.environment
        let titles = try ChildProcess.run(ChildProcess.mlib.path, ["ls", "-f", "$title"], environment: environment).out
        #expect(titles.contains("Bell\u{01}s & <Whistles>"), "the control character reached the library: \(titles)")
        _ = try ChildProcess.run(ChildProcess.mlib.path, ["playlist", "smart", "Mp3s", #"path ENDSWITH ".mp3""#], environment: environment)

        let lab = try VethLab()
        defer { lab.close() }
        let server = try lab.serveDLNA(environment: environment)
        defer { server.stop() }
        let script = ChildProcess.repo.appendingPathComponent("Tests/DLNAServerTests/Scripts/dlna_dump.py").path
        let dumped = try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, [
            "python3", script, "http://\(lab.serverAddress):\(server.port)/description.xml", dump.path,
            DLNAClientTests.search, #"dc:title contains "Bell""#, #"upnp:artist contains "Ctl""#]))
        #expect(dumped.status == 0, "\(dumped.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dump.path).sorted()
        let didl = files.filter { !$0.hasSuffix("-description.xml") && !$0.hasSuffix("-scpd.xml") }
        #expect(didl.count > 100, "\(files.count) answers saved")

        // Descriptions: well-formed, in the UPnP device and service namespaces.
        for name in files where name.hasSuffix("-description.xml") || name.hasSuffix("-scpd.xml") {
            let path = dump.appendingPathComponent(name).path
            let lint = try ChildProcess.run("/usr/bin/xmllint", ["--nonet", "--noout", path])
            #expect(lint.status == 0, "\(name): \(lint.stderr)")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(name.hasSuffix("-scpd.xml") ? #"<scpd xmlns="urn:schemas-upnp-org:service-1-0">"#
                                                               : #"<root xmlns="urn:schemas-upnp-org:device-1-0""#), "\(name)")
        }

        // DIDL-Lite: three allowances, each where the schema and practice part, and no other.
        // 1. `dlna:profileID` on `upnp:albumArtURI`: the DLNA guidelines require it (JPEG_TN), the UPnP schema
        //    (typed xsd:anyURI, no attributes) does not know DLNA's namespace; it is removed before validation.
        // 2. Samsung's `sec:CaptionInfoEx` (a video's sidecar subtitles) directly under `item`, where Samsung TVs
        //    read it; the schema allows other namespaces only inside `desc`. It is removed before validation.
        // 3. An empty container's children are an empty `<DIDL-Lite/>`, as the ContentDirectory spec writes zero
        //    results; the schema (its own note: "informational", occurrence counts not normative) wants one child.
        let checked = base.appendingPathComponent("checked")
        try FileManager.default.createDirectory(at: checked, withIntermediateDirectories: true)
        var empty = 0, profileIDs = 0
        var paths: [String] = []
        for name in didl {
            var text = try String(contentsOfFile: dump.appendingPathComponent(name).path, encoding: .utf8)
            let before = text.count
            text = text.replacingOccurrences(of: #"<upnp:albumArtURI dlna:profileID="JPEG_TN">"#, with: "<upnp:albumArtURI>")
            if text.count != before { profileIDs += 1 }
            text = text.replacing(try Regex(#"<sec:CaptionInfoEx sec:type="srt">[^<]*</sec:CaptionInfoEx>"#), with: "")
            if !text.contains("<item") && !text.contains("<container") {
                empty += 1
                let lint = try ChildProcess.run("/usr/bin/xmllint", ["--nonet", "--noout", dump.appendingPathComponent(name).path])
                #expect(lint.status == 0, "\(name): \(lint.stderr)")
                continue
            }
            let path = checked.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        #expect(profileIDs > 0 && empty <= 2, "\(profileIDs) answers with art, \(empty) empty")
        #expect(didl.contains { try! String(contentsOfFile: dump.appendingPathComponent($0).path, encoding: .utf8).contains("<sec:CaptionInfoEx sec:type=\"srt\">") })
        let catalog = try Self.catalog(in: base)
        let lint = try ChildProcess.run("/usr/bin/xmllint", ["--nonet", "--noout", "--schema", Self.schemas + "/didl-lite-v2.xsd"] + paths,
                                        environment: ["XML_CATALOG_FILES": catalog.path])
        let failures = lint.stderr.split(separator: "\n").filter { !$0.hasSuffix(" validates") }
        #expect(lint.status == 0 && failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
        #expect(lint.stderr.split(separator: "\n").filter { $0.hasSuffix(" validates") }.count == paths.count)
        // The control characters were dropped from the answers, the rest of the title kept.
        let all = try didl.map { try String(contentsOfFile: dump.appendingPathComponent($0).path, encoding: .utf8) }.joined()
        #expect(all.contains("Bells &amp; &lt;Whistles&gt;") && all.contains("Ctl Band") && !all.contains("\u{01}") && !all.contains("\u{02}"))
        #expect(server.stop() == 0)
    }
}
