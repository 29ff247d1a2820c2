import Library

/// A DIDL-Lite page written straight in the form a SOAP answer carries it, the text of its `Result`
/// argument: what `+=` appends is DIDL-Lite (markup, and values already escaped for it), escaped once more;
/// `text` appends a value escaped for DIDL-Lite and again for SOAP, in one pass. Made as a string and then
/// escaped into the answer, a page cost a third of a small Browse's CPU in the two steps.
///
/// The bytes go into memory of its own (a `DIDLPage`, handed over by `finish`), written through a pointer: a
/// page is some seventy small appends a Browse (tags, ids, kept bodies), and each cost an array's append 90
/// instructions (its capacity and uniqueness checked, generically), a buffer's more (issue 43, callgrind).
/// Not copyable: two copies would write into one page's memory, which either may move as it grows.
struct DIDLOutput: ~Copyable {
    /// The page being written: owns the memory (freed with it, should the page never be finished).
    private let page: DIDLPage
    /// The page's memory and what is written of it, kept here (not read through the page) for each append.
    private var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
        page = DIDLPage(start)
    }

    /// The page as written; the output ends here.
    consuming func finish() -> DIDLPage {
        page.count = count
        return page
    }

    /// The bytes written from `offset` on (an item's body, kept: `ItemBodies`).
    func bytes(from offset: Int) -> [UInt8] { Array(UnsafeBufferPointer(start: start + offset, count: count - offset)) }

    /// Room for `more` bytes, the page's memory grown (doubled at least) when it has not.
    @inline(__always) private mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        capacity = max(capacity * 2, count + more)
        start = page.grow(to: capacity, keeping: count)
    }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (start + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always) private mutating func append(byte: UInt8) {
        reserve(1)
        (start + count).initialize(to: byte)
        count += 1
    }

    /// Bytes already in the answer's form (`DIDLWriter`'s memo of each profile's `protocolInfo`, a kept body).
    mutating func append(escaped: [UInt8]) { escaped.withUnsafeBufferPointer { append($0) } }

    /// A value escaped on its way in (`text`), reused.
    private var scratch: [UInt8] = []

    static func += (out: inout DIDLOutput, fragment: String) {
        out.scratch.removeAll(keepingCapacity: true)
        escapeMarkup(fragment, into: &out.scratch)
        out.append(escaped: out.scratch)
    }

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

    static func += (out: inout DIDLOutput, markup: Markup) { out.append(markup.bytes) }

    /// `open`, `value` escaped (`text`), `close`: an element or an attribute.
    mutating func wrap(_ open: Markup, _ value: String, _ close: Markup) {
        self += open
        text(value)
        self += close
    }

    /// A value (a title, an id, a URL): escaped for DIDL-Lite, then for SOAP.
    mutating func text(_ value: String) {
        scratch.removeAll(keepingCapacity: true)
        XMLText.escapeTwice(value, into: &scratch)
        append(escaped: scratch)
    }

    /// A number's decimal digits (an item's id in its object id), written without making a string.
    mutating func number(_ value: Int64) {
        if value < 0 { append(byte: UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var at = 20
            repeat {
                at -= 1
                digits[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(UnsafeBufferPointer(rebasing: digits[at...]))
        }
    }

    /// The last container id written as an item's parent, and where the page holds it in the answer's form: a
    /// page of items is listed in one container, whose id each item writes twice (in its own id and as its parent).
    private var parent: (id: String, at: Int, count: Int)?

    /// An item's parent's id (`id`, remembered for the next item).
    mutating func parentID(_ id: String) {
        if let parent, parent.id == id {
            reserve(parent.count)   // first: growing moves the page
            (start + count).initialize(from: start + parent.at, count: parent.count)
            count += parent.count
            return
        }
        let at = count
        self.id(id)
        parent = (id, at, count - at)
    }

    /// An object id: as it is when every byte is one ids are made of (`ObjectID.isPlain`), else escaped
    /// (`text`). Two for every object of a page; the escaping pass over them was 6% of a Browse's instructions.
    mutating func id(_ value: String) {
        var value = value
        // On the contiguous bytes: `allSatisfy` over a `UTF8View` cost more than the escaping it saves.
        let plain = value.withUTF8 { utf8 in
            for byte in utf8 where !ObjectID.isPlain(byte) { return false }
            append(utf8)
            return true
        }
        if !plain { text(value) }
    }
}

/// A finished DIDL-Lite page (`DIDLOutput`), in the memory it was written into, until the SOAP answer copies it
/// into the buffer it is sent from (`SOAPCall.response`). Not changed once finished.
final class DIDLPage: @unchecked Sendable, Equatable {
    private var start: UnsafeMutablePointer<UInt8>
    fileprivate(set) var count = 0

    fileprivate init(_ start: UnsafeMutablePointer<UInt8>) { self.start = start }

    deinit { start.deallocate() }

    /// The memory, `capacity` bytes now, its first `written` kept (`DIDLOutput.reserve`).
    fileprivate func grow(to capacity: Int, keeping written: Int) -> UnsafeMutablePointer<UInt8> {
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.initialize(from: start, count: written)
        start.deallocate()
        start = grown
        return grown
    }

    /// The page's bytes, for `body` only: the page, and its memory, live until `body` returns (a pointer handed
    /// out instead outlived a page no one held any more, which Swift may free after its last use).
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(UnsafeBufferPointer(start: start, count: count)) }
    }

    static func == (a: DIDLPage, b: DIDLPage) -> Bool { a.withBytes { a in b.withBytes { a.elementsEqual($0) } } }
}

/// An out argument of a SOAP answer: text, escaped as it is written, or a page already escaped (a Browse's
/// `Result`, `DIDLOutput`).
enum SOAPValue: Sendable, Equatable {
    case text(String)
    case escaped(DIDLPage)
}
