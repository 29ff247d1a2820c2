import Library

/// A DIDL-Lite page written straight in the form a SOAP answer carries it, the text of its `Result`
/// argument: what `+=` appends is DIDL-Lite (markup, and values already escaped for it), escaped once more;
/// `text` appends a value escaped for DIDL-Lite and again for SOAP, in one pass. Made as a string and then
/// escaped into the answer, a page cost a third of a small Browse's CPU in the two steps.
struct DIDLOutput {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    static func += (out: inout DIDLOutput, fragment: String) { escapeMarkup(fragment, into: &out.bytes) }

    /// DIDL-Lite (markup, and values escaped for it) as the text of a SOAP element: `&`, `<` and `>` escaped,
    /// nothing else. Quotes need no escaping in an element's text (minidlna sends them as they are); as
    /// `&quot;` they were an eighth of a page's bytes, which every renderer receives and parses.
    static func escapeMarkup(_ markup: String, into bytes: inout [UInt8]) {
        for byte in markup.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes += "&amp;".utf8
            case UInt8(ascii: "<"): bytes += "&lt;".utf8
            case UInt8(ascii: ">"): bytes += "&gt;".utf8
            default: bytes.append(byte)
            }
        }
    }

    /// Fixed markup in the answer's form, made once for the process (`DIDLWriter`'s `static let`s): a page is
    /// mostly the same few dozen fragments, and escaping them byte by byte at every append was a tenth of a
    /// Browse's CPU (issue 43). Held in memory never freed rather than an array: appending an array retained
    /// and released it, a hundred pairs of atomic operations a Browse.
    struct Markup: @unchecked Sendable {   // immutable bytes that live as long as the process
        let bytes: UnsafeBufferPointer<UInt8>
        init(_ markup: String) {
            var bytes: [UInt8] = []
            DIDLOutput.escapeMarkup(markup, into: &bytes)
            let kept = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            _ = kept.initialize(from: bytes)
            self.bytes = UnsafeBufferPointer(kept)
        }
    }

    static func += (out: inout DIDLOutput, markup: Markup) { out.bytes.append(contentsOf: markup.bytes) }

    /// `open`, `value` escaped (`text`), `close`: an element or an attribute.
    mutating func wrap(_ open: Markup, _ value: String, _ close: Markup) {
        self += open
        text(value)
        self += close
    }

    /// A value (a title, an id, a URL): escaped for DIDL-Lite, then for SOAP.
    mutating func text(_ value: String) { XMLText.escapeTwice(value, into: &bytes) }

    /// A number's decimal digits (an item's id in its object id), written without making a string.
    mutating func number(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var at = 20
            repeat {
                at -= 1
                digits[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[at...]))
        }
    }

    /// The last container id written as an item's parent, in the answer's form: a page of items is listed in
    /// one container, whose id each item writes twice (in its own id and as its parent).
    private var parent: (id: String, bytes: [UInt8])?

    /// An item's parent's id (`id`, remembered for the next item).
    mutating func parentID(_ id: String) {
        if let parent, parent.id == id { bytes += parent.bytes; return }
        let start = bytes.count
        self.id(id)
        parent = (id, Array(bytes[start...]))
    }

    /// An object id: as it is when every byte is one ids are made of (`ObjectID.isPlain`), else escaped
    /// (`text`). Two for every object of a page; the escaping pass over them was 6% of a Browse's instructions.
    mutating func id(_ value: String) {
        var value = value
        // On the contiguous bytes: `allSatisfy` over a `UTF8View` cost more than the escaping it saves.
        let plain = value.withUTF8 { utf8 in
            for byte in utf8 where !ObjectID.isPlain(byte) { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !plain { text(value) }
    }

    /// Bytes already in the answer's form (`DIDLWriter`'s memo of each profile's `protocolInfo`).
    mutating func append(escaped: [UInt8]) { bytes += escaped }
}

/// An out argument of a SOAP answer: text, escaped as it is written, or bytes already escaped (a Browse's
/// `Result`, `DIDLOutput`).
enum SOAPValue: Sendable, Equatable {
    case text(String)
    case escaped([UInt8])
}
