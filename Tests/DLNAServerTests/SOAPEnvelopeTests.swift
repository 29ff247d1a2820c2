import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import DLNAServer

/// The server reads SOAP envelopes with its own byte reader (`SOAPEnvelopeReader`); Foundation's XMLParser,
/// which it replaced, is the oracle: every envelope a control point may send reads the same through both,
/// and what XMLParser refuses the reader refuses too.
@Suite struct SOAPEnvelopeTests {
    private static let browse = #"<u:Browse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1">"#

    private static func envelope(_ inner: String, declaration: String = #"<?xml version="1.0" encoding="utf-8"?>"#) -> String {
        declaration + #"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>"#
            + inner + "</s:Body></s:Envelope>"
    }

    /// Envelopes as control points write them, and XML's corners inside them.
    static let wellFormed: [String] = [
        envelope(browse + "<ObjectID>0</ObjectID><BrowseFlag>BrowseDirectChildren</BrowseFlag><Filter>*</Filter><StartingIndex>0</StartingIndex><RequestedCount>50</RequestedCount><SortCriteria></SortCriteria></u:Browse>"),
        envelope(browse + "<ObjectID>music/artists/12</ObjectID><SortCriteria/><Filter >dc:title,upnp:album</Filter ></u:Browse>"),
        envelope("\n  " + browse + "\n    <ObjectID>0</ObjectID>\n    <Filter>*</Filter>\n  </u:Browse>\n", declaration: #"<?xml version='1.0'?>"# + "\n"),
        envelope(#"<u:Search xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"><ContainerID>0</ContainerID><SearchCriteria>dc:title contains &quot;Ne&amp;on&quot; and upnp:artist = &apos;Bj&#246;rk&apos; &lt; &#x263A;</SearchCriteria></u:Search>"#),
        envelope(browse + "<ObjectID><![CDATA[a<b&c]]></ObjectID><!-- a comment --><Filter>*<?pi data?></Filter></u:Browse>"),
        envelope(browse + #"<ObjectID xmlns:dt="urn:schemas-microsoft-com:datatypes" dt:dt="string">x'y</ObjectID><Filter a = '1>2' b="q">*</Filter></u:Browse>"#),
        envelope(#"<Browse xmlns="urn:schemas-upnp-org:service:ContentDirectory:1"><ObjectID>Müsik ☺</ObjectID><Nested>a<b>ignored</b>c</Nested></Browse>"#),
        "\u{FEFF}" + envelope(browse + "<ObjectID>0</ObjectID></u:Browse>", declaration: ""),
        envelope(#"<u:GetSystemUpdateID xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"/>"#),
        envelope(#"<u:IsAuthorized xmlns:u="urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1"><DeviceID></DeviceID></u:IsAuthorized>"#),
    ]

    /// Not well-formed: XMLParser refuses each, and so must the reader.
    static let malformed: [String] = [
        "not xml", "", "<", "<a>", "<a></b>",
        envelope(browse + "<ObjectID>0</Filter></u:Browse>"),
        envelope(browse + "<ObjectID>&bogus;</ObjectID></u:Browse>"),
        envelope(browse + "<ObjectID>&#0;</ObjectID></u:Browse>"),
        envelope(browse + "<ObjectID>&#xD800;</ObjectID></u:Browse>"),
        envelope(browse + "<ObjectID>a\u{01}b</ObjectID></u:Browse>"),
        envelope(browse + "<ObjectID>&amp</ObjectID></u:Browse>"),
        envelope(browse + #"<ObjectID a="1>0</ObjectID></u:Browse>"#),
    ]

    /// Not well-formed either, but Foundation's XMLParser on Linux reads them (it stops at the root's end, or
    /// at an unfinished section, without an error): the reader refuses them.
    static let cutShortOrTrailing: [String] = [
        envelope(browse + "<ObjectID><![CDATA[0</ObjectID></u:Browse>"),
        envelope(browse + "<ObjectID>0</ObjectID></u:Browse>") + "<second/>",
        envelope(browse + "<ObjectID>0</ObjectID></u:Browse>") + "trailing text",
        envelope(browse + "<ObjectID>0</ObjectID><!-- open</u:Browse>"),
    ]

    @Test(arguments: wellFormed) func readsAsXMLParserDoes(_ body: String) throws {
        let expected = try #require(Oracle.parse(Array(body.utf8)), "XMLParser reads it")
        let call = try #require(SOAPCall.parse(Array(body.utf8)))
        #expect(call.action == expected.action)
        #expect(call.arguments.dictionary == expected.arguments)
    }

    @Test(arguments: malformed) func refusesWhatXMLParserRefuses(_ body: String) {
        #expect(Oracle.parse(Array(body.utf8)) == nil, "XMLParser refuses it")
        #expect(SOAPCall.parse(Array(body.utf8)) == nil)
    }

    @Test(arguments: cutShortOrTrailing) func refusesWhatIsCutShortOrHasMoreAfterTheRoot(_ body: String) {
        #expect(SOAPCall.parse(Array(body.utf8)) == nil)
    }

    /// The reader walks the body through an unsafe buffer (no bounds checks in a release build): every prefix
    /// of an envelope using each construct it reads (a BOM, a comment, a processing instruction, attributes in
    /// both quotes, an empty element, CDATA, entities and character references) is refused without reading
    /// past its end. A debug build (the tests') traps on any index out of the buffer.
    @Test func refusesEveryPrefixWithoutReadingPastIt() throws {
        let inner = Self.browse + #"<!-- c --><?pi x?><ObjectID a='1' b="2">1$all&amp;&#x41;&#66;<![CDATA[<x>]]></ObjectID>"#
            + "<Filter/><StartingIndex> 0 </StartingIndex></u:Browse>"
        let whole = [0xEF, 0xBB, 0xBF] + Array(Self.envelope(inner).utf8)
        let call = try #require(SOAPCall.parse(whole))
        #expect(call.arguments["ObjectID"] == "1$all&AB<x>" && call.arguments["Filter"] == "")
        for end in 0..<whole.count {
            #expect(SOAPCall.parse(Array(whole[..<end])) == nil, "a prefix of \(end) bytes was read as an envelope")
        }
    }

    /// A DOCTYPE is refused outright: XMLParser reads one (and its internal entities), the reader never does.
    @Test func refusesADoctype() {
        let body = #"<?xml version="1.0"?><!DOCTYPE s [<!ENTITY x "0">]>"# + Self.envelope(Self.browse + "<ObjectID>&x;</ObjectID></u:Browse>", declaration: "")
        #expect(SOAPCall.parse(Array(body.utf8)) == nil)
        let bytes: [UInt8] = Array(Self.envelope(Self.browse + "<ObjectID>").utf8) + [0xC3, 0x28] + Array("</ObjectID></u:Browse>".utf8)
        #expect(SOAPCall.parse(bytes) == nil, "bad UTF-8 in an argument")
    }

    /// An element's name that is not UTF-8 is refused at any depth: the action's and its arguments' (kept as
    /// Strings) and the others' (only matched with their end tags). `#` stands for the name's bytes.
    @Test func refusesANameThatIsNotUTF8() {
        let shapes = [
            "<s:E#><s:Body>" + Self.browse + "</u:Browse></s:Body></s:E#>",            // the envelope
            Self.envelope(Self.browse + "<Obj#>0</Obj#></u:Browse>"),                   // an argument
            Self.envelope(Self.browse + "<ObjectID><x#/>0</ObjectID></u:Browse>"),      // inside an argument
        ]
        func fill(_ shape: String, _ name: [UInt8]) -> [UInt8] {
            Array(shape.utf8).split(separator: UInt8(ascii: "#"), omittingEmptySubsequences: false).joined(separator: name).map { $0 }
        }
        for shape in shapes {
            #expect(SOAPCall.parse(fill(shape, [0xC3, 0xA9])) != nil, "\(shape) with é")
            #expect(SOAPCall.parse(fill(shape, [0xC3, 0x28])) == nil, "\(shape) with a byte that is not UTF-8")
        }
    }

    /// What the server used before: XMLParser with namespaces, the depth-3 element and its children's text.
    private final class Oracle: NSObject, XMLParserDelegate {
        var depth = 0, action: String?, arguments: [String: String] = [:], current: String?, text = ""

        static func parse(_ body: [UInt8]) -> (action: String, arguments: [String: String])? {
            let oracle = Oracle()
            let parser = XMLParser(data: Data(body))
            parser.shouldProcessNamespaces = true
            parser.shouldResolveExternalEntities = false
            parser.delegate = oracle
            guard parser.parse(), let action = oracle.action else { return nil }
            return (action, oracle.arguments)
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            depth += 1
            if depth == 3, action == nil { action = name }
            if depth == 4 { current = name; text = "" }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { if depth == 4 { text += string } }
        func parser(_ parser: XMLParser, foundCDATA block: Data) { if depth == 4 { text += String(decoding: block, as: UTF8.self) } }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if depth == 4, let current { arguments[current] = text }
            depth -= 1
        }
    }
}
