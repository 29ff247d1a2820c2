@testable import DLNAServer
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Library
import NIOCore
import Testing

/// The small protocol pieces the end-to-end test does not reach on every branch: Range headers, SSDP
/// search targets and versions, object ids, durations, DLNA profiles.
@Suite struct ProtocolPiecesTests {
    @Test func rangeHeaders() {
        func r(_ header: String?, _ size: Int = 1000) -> Range<Int>?? {
            switch Streaming.range(header, size: size) {
            case nil: return .some(nil)
            case .success(let range)?: return .some(range)
            case .failure?: return nil
            }
        }
        #expect(r(nil) == .some(nil))
        #expect(r("bytes=0-99") == .some(0..<100))
        #expect(r("bytes=900-") == .some(900..<1000))
        #expect(r("bytes=-100") == .some(900..<1000))
        #expect(r("bytes=500-5000") == .some(500..<1000))   // past the end: to the end
        #expect(r("bytes=1000-") == nil)                     // unsatisfiable: 416
        #expect(r("bytes=5-4") == nil)
        #expect(r("bytes=0-1,5-6") == nil)                   // one range only
        #expect(r("items=0-1") == nil)
        // The last byte as Int.max: clamped, not overflowed (the fuzzer's `bytes=0-9223372036854775807` stopped the server).
        #expect(r("bytes=0-9223372036854775807") == .some(0..<1000))
        #expect(r("bytes=9223372036854775806-9223372036854775807") == nil)
        #expect(r("bytes=-9223372036854775807") == .some(0..<1000))
        #expect(r("bytes=0-99999999999999999999") == nil)
    }

    /// StartingIndex and RequestedCount are ui4: digits, with XML's white space (a pretty-printed envelope's
    /// line breaks too) around them; anything else is UPnP error 402.
    @Test func unsignedArguments() {
        func n(_ text: String) -> Int? { try? ContentDirectory.number(["N": text], "N") }
        #expect(n("0") == 0)
        #expect(n(" 50 ") == 50)
        #expect(n("\n\t  7\r\n") == 7)
        #expect(n("4294967295") == 4_294_967_295)
        #expect(n("+1") == 1)   // xs:unsignedInt allows the sign
        for bad in ["", " ", "\n", "-1", "5x", "x5", "1 2", "4294967296", "\u{FF15}", "\u{A0}5", "0x10"] {
            #expect(n(bad) == nil, "\(bad.debugDescription) is no ui4")
        }
        #expect(throws: UPnPError.self) { try ContentDirectory.number([:], "N") }
    }

    @Test func searchTargetsAndVersions() {
        let search = "M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\nST: ssdp:all\r\n\r\n"
        #expect(SSDPMessages.searchTarget(of: search) == "ssdp:all")
        #expect(SSDPMessages.searchTarget(of: search.replacingOccurrences(of: "ssdp:discover", with: "ssdp:other")) == nil)
        #expect(SSDPMessages.searchTarget(of: "NOTIFY * HTTP/1.1\r\nNT: upnp:rootdevice\r\n\r\n") == nil)
        let messages = SSDPMessages(uuid: "u", maxAge: 1800)
        #expect(messages.answers(searchTarget: "ssdp:all", location: "L").count == 6)
        #expect(messages.answers(searchTarget: "uuid:u", location: "L").count == 1)
        #expect(messages.answers(searchTarget: "urn:schemas-upnp-org:service:ContentDirectory:1", location: "L").count == 1)
        // A search for a newer version than the device's is not answered; an older one is.
        #expect(messages.answers(searchTarget: "urn:schemas-upnp-org:device:MediaServer:2", location: "L").isEmpty)
        #expect(SSDPMessages.matches("urn:schemas-upnp-org:device:MediaServer:1", "urn:schemas-upnp-org:device:MediaServer:2"))
        #expect(messages.answers(searchTarget: "urn:schemas-upnp-org:device:MediaRenderer:1", location: "L").isEmpty)
        #expect(messages.notify(alive: false, location: "L").allSatisfy { $0.contains("NTS: ssdp:byebye") && !$0.contains("LOCATION") })
    }

    @Test func objectIDs() {
        #expect(ObjectID.item("1$albums$0123456789abcdef$i42")! == ("1$albums$0123456789abcdef", 42))
        #expect(ObjectID.item("1$albums$0123456789abcdef") == nil)
        #expect(ObjectID.item("0") == nil)
        #expect(ObjectID.hash("Björk").count == 16 && ObjectID.hash("Björk") == ObjectID.hash("Björk") && ObjectID.hash("a") != ObjectID.hash("b"))
        #expect(ObjectID.item(in: "1$albums$0123456789abcdef", id: 42) == "1$albums$0123456789abcdef$i42")
        #expect(ObjectID.item(in: "1$all", id: Int64.max) == "1$all$i\(Int64.max)")
        #expect(ObjectID.item(in: "1$all", id: -7) == "1$all$i-7")
    }

    /// Ids split on their bytes as they did by Character, empty parts kept or left out, non-ASCII whole.
    @Test func objectIDPartsSplitOnTheDollarSign() {
        for id in ["0", "1$all", "1$albums$0123456789abcdef$i42", "$", "1$$x$", "", "é$ü̈$ß", "1$all$i42$"] {
            #expect(ObjectID.parts(id) == id.split(separator: "$", omittingEmptySubsequences: false).map(String.init), "\(id)")
            #expect(ObjectID.parts(id, omittingEmpty: true) == id.split(separator: "$").map(String.init), "\(id)")
        }
    }

    /// An item's id in its object id, written as digits without a string, is its description.
    @Test func numbersAreWrittenAsTheirDigits() {
        for value: Int64 in [0, 7, 42, -7, 1_000_000, Int64.max, Int64.min] {
            var out = DIDLOutput(capacity: 0)
            out.number(value)
            #expect(String(decoding: out.bytes(from: 0), as: UTF8.self) == String(value))
        }
    }

    /// An id made of what ids are made of goes into a page as it is; any other (a client's, echoed back) is
    /// escaped as every value is.
    @Test func anIDIsEscapedOnlyWhenItHasToBe() {
        for id in ["1$albums$0123456789abcdef$i42", "3$ABCdef", "1&2", "a<b>$\"c\"", "é$1", "1 2", "x-y_z.w"] {
            var fast = DIDLOutput(capacity: 0), slow = DIDLOutput(capacity: 0)
            fast.id(id)
            slow.text(id)
            #expect(fast.bytes(from: 0) == slow.bytes(from: 0), "\(id)")
        }
    }

    /// A page that outgrows the room it was made with (its memory moved again and again) keeps every byte, the
    /// parent id each item repeats (copied from the page itself) included.
    @Test func aPageOutgrowingItsRoomKeepsEveryByte() {
        var out = DIDLOutput(capacity: 0)
        var expected: [UInt8] = []
        for n in 0..<500 {
            let parent = "1$albums$\(n / 50)", filler = [UInt8](repeating: UInt8(ascii: "a"), count: n % 97)
            out.parentID(parent)
            out.number(Int64(n))
            out += "<x>"
            out.append(escaped: filler)
            out.parentID(parent)
            expected += Array(parent.utf8) + Array(String(n).utf8) + Array("&lt;x&gt;".utf8) + filler + Array(parent.utf8)
        }
        #expect(out.bytes(from: 0) == expected)
        #expect(out.bytes(from: expected.count - 3) == Array(expected.suffix(3)))
        #expect(out.finish().withBytes(Array.init) == expected)
    }

    @Test func durations() {
        #expect(DIDLWriter.duration(0.5) == "0:00:00.500")
        #expect(DIDLWriter.duration(3725.25) == "1:02:05.250")
        #expect(DIDLWriter.duration(59.9996) == "0:01:00.000")
        #expect(DIDLWriter.duration(360_000.007) == "100:00:00.007")
    }

    @Test func profiles() {
        #expect(MediaProfile.of(container: "mp3", audioCodec: "mp3", videoCodec: nil, fileExtension: "mp3", resolution: nil, isVideo: false)
                == MediaProfile(mimeType: "audio/mpeg", profile: "MP3"))
        #expect(MediaProfile.of(container: "mov,mp4,m4a,3gp,3g2,mj2", audioCodec: "aac", videoCodec: nil, fileExtension: "m4a", resolution: nil, isVideo: false).profile == "AAC_ISO_320")
        #expect(MediaProfile.of(container: "flac", audioCodec: "flac", videoCodec: nil, fileExtension: "flac", resolution: nil, isVideo: false)
                == MediaProfile(mimeType: "audio/flac", profile: nil))
        #expect(MediaProfile.of(container: "mov,mp4,m4a,3gp,3g2,mj2", audioCodec: "aac", videoCodec: "h264", fileExtension: "mp4", resolution: "1920x1080", isVideo: true).profile
                == "AVC_MP4_MP_HD_1080i_AAC")
        #expect(MediaProfile.of(container: "matroska,webm", audioCodec: "opus", videoCodec: "mpeg4", fileExtension: "mkv", resolution: "320x240", isVideo: true)
                == MediaProfile(mimeType: "video/x-matroska", profile: nil))
        #expect(MediaProfile(mimeType: "audio/mpeg", profile: "MP3").protocolInfo
                == "http-get:*:audio/mpeg:DLNA.ORG_PN=MP3;DLNA.ORG_OP=01;DLNA.ORG_CI=0;DLNA.ORG_FLAGS=01700000000000000000000000000000")
    }

    /// The User-Agent table: which codecs get transcodes, and before or after the file's own res.
    @Test func rendererProfiles() {
        let standard = RendererProfile.of(userAgent: "VLC/3.0.20 LibVLC/3.0.20")
        #expect(standard.name == "default" && RendererProfile.of(userAgent: nil).name == "default")
        #expect(["flac", "alac", "opus", "vorbis", "wavpack", "ape"].map(standard.placement) == Array(repeating: .after, count: 6))
        #expect(["mp3", "aac", "pcm_s16le", "wmav2", "dsd_lsbf"].map(standard.placement) == Array(repeating: .none, count: 5))
        let ps3 = RendererProfile.of(userAgent: "PLAYSTATION 3")
        #expect(ps3.name == "PlayStation 3")
        #expect(ps3.placement(codec: "vorbis") == .before && ps3.placement(codec: "flac") == .before)
        #expect(ps3.placement(codec: "mp3") == .none && ps3.placement(codec: "pcm_s24le") == .none)
        let samsung = RendererProfile.of(userAgent: "DLNADOC/1.50 SEC_HHP_[TV]UE32D5000/1.0")
        #expect(samsung.name == "Samsung AllShare")
        #expect(samsung.placement(codec: "flac") == .after && samsung.placement(codec: "opus") == .before && samsung.placement(codec: "aac") == .none)
        #expect(MediaProfile.transcode(.lpcm, sampleRate: 44_100, channels: 2).protocolInfo
                == "http-get:*:audio/L16;rate=44100;channels=2:DLNA.ORG_PN=LPCM;DLNA.ORG_OP=00;DLNA.ORG_CI=1;DLNA.ORG_FLAGS=01700000000000000000000000000000")
    }

    @Test func soapEnvelopes() throws {
        let body = #"<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><u:Browse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"><ObjectID>0</ObjectID><BrowseFlag>BrowseMetadata</BrowseFlag><Filter>*</Filter></u:Browse></s:Body></s:Envelope>"#
        let call = try #require(SOAPCall.parse(Array(body.utf8)))
        #expect(call.action == "Browse" && call.arguments == ["ObjectID": "0", "BrowseFlag": "BrowseMetadata", "Filter": "*"])
        #expect(SOAPCall.parse(Array("not xml".utf8)) == nil)
        #expect(SOAPCall.fault(.noSuchObject).contains("<errorCode>701</errorCode>"))
    }
}

/// A control character in a tag (a `\u{01}` in a title) must not make an answer ill-formed: XML 1.0 allows
/// none but tab, line feed and carriage return, not even as a character reference. The DIDL-Lite document is
/// escaped twice (its own text, then as the SOAP `Result`), so both levels must drop it.
@Suite struct XMLEscapingTests {
    private func wellFormed(_ xml: String) -> Bool {
        XMLParser(data: Data(xml.utf8)).parse()
    }

    @Test func aControlCharacterInATitleLeavesTheBrowseAnswerWellFormed() {
        let title = "Bell\u{01}s\u{1F} & <Whistles>\t\u{FFFE}"
        let didl = DIDLWriter.header + "<item id=\"1\" parentID=\"0\" restricted=\"1\"><dc:title>\(XML.escape(title))</dc:title>"
            + "<upnp:class>object.item.audioItem</upnp:class></item></DIDL-Lite>"
        #expect(wellFormed(didl), "\(didl)")
        let answer = String(buffer: SOAPCall.response(service: "urn:schemas-upnp-org:service:ContentDirectory:1", action: "Browse",
                                                      [("Result", .text(didl))]))
        #expect(wellFormed(answer), "\(answer)")
        #expect(XML.escape(title) == "Bells &amp; &lt;Whistles&gt;&#9;")
        #expect(XML.escape("plain") == "plain")
    }

    static let awkwardTexts = ["", "plain", "&", "<<>>", "Bell\u{01}s & <Whistles>\t\u{FFFE}\u{FFFF}end", "Björk – Jóga 🎵 \"'\r\n",
                               "\u{EF}\u{BF}", "tail&", "&#10;&amp;", String(repeating: "<a href=\"x\">&amp;</a>", count: 500)]

    /// The bytes a SOAP answer escapes its `Result` into are the text's escape, whatever the text.
    @Test func escapingOntoBytesEqualsEscapingText() {
        for text in Self.awkwardTexts {
            var bytes: [UInt8] = Array("pre".utf8)
            XMLText.escape(text, into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "pre" + XML.escape(text), "\(text.prefix(40).debugDescription)")
        }
    }

    /// A page written in the answer's form (`DIDLOutput`) is the page written as text and then escaped as an
    /// element's text (`&`, `<` and `>`; quotes as they are, as minidlna sends them): a value escaped twice in
    /// one pass is its escape escaped, and an XML parser reading the answer's element gets the page back.
    @Test func aPageWrittenEscapedEqualsThePageEscaped() {
        for text in Self.awkwardTexts {
            var twice: [UInt8] = []
            XMLText.escapeTwice(text, into: &twice)
            #expect(String(decoding: twice, as: UTF8.self) == XML.escape(XML.escape(text)), "\(text.prefix(40).debugDescription)")
            var out = DIDLOutput(capacity: 0)
            out += "<dc:title a=\"1\">"
            out.text(text)
            out += "</dc:title>"
            let page = "<dc:title a=\"1\">" + XML.escape(text) + "</dc:title>"
            let asText = page.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            #expect(String(decoding: out.bytes(from: 0), as: UTF8.self) == asText)
            #expect(Self.elementText(Array("<Result>".utf8) + out.bytes(from: 0) + Array("</Result>".utf8)) == page, "\(text.prefix(40).debugDescription)")
        }
    }

    /// The text of a document's root element, as Foundation's XMLParser reads it.
    private static func elementText(_ document: [UInt8]) -> String? {
        final class Text: NSObject, XMLParserDelegate {
            var text = ""
            func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        }
        let parser = XMLParser(data: Data(document)), delegate = Text()
        parser.delegate = delegate
        return parser.parse() ? delegate.text : nil
    }
}
