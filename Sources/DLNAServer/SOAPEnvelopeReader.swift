/// Reads a SOAP call's action and arguments straight from the request's bytes: the element at depth 3
/// (Envelope, Body, the action) and the text of each of its children, by local name (the namespace prefix
/// dropped). Foundation's XMLParser cost most of a small Browse's answering time (a parser, a delegate and
/// a String per callback for a 400-byte body), and a control point sends nothing this does not read.
///
/// What it takes is XML 1.0 as envelopes are written: a declaration, comments and processing instructions
/// (skipped), attributes (skipped, quoted), empty elements, CDATA sections, the five predefined entities and
/// character references. It refuses what is not well-formed as far as it reads (tags that do not nest, text
/// outside the root, a second root, bad UTF-8, a character XML forbids) and any DOCTYPE: no entity a client
/// declares is ever expanded.
///
/// It reads through an unsafe buffer: over the array itself, every byte's bounds check and slice made it a
/// ninth of a Browse's instructions (21k of 180k, callgrind).
struct SOAPEnvelopeReader {
    typealias Run = Slice<UnsafeBufferPointer<UInt8>>
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The action's local name and its arguments; nil when `body` is not an envelope this reads.
    static func read(_ body: [UInt8]) -> (action: String, arguments: SOAPArguments)? {
        body.withUnsafeBufferPointer { buffer in
            var reader = SOAPEnvelopeReader(buffer)
            return reader.envelope()
        }
    }

    private mutating func envelope() -> (action: String, arguments: SOAPArguments)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        var open: [Range<Int>] = []              // the qualified names of the elements open, outermost first
        open.reserveCapacity(8)
        var action: String?
        var arguments = SOAPArguments()
        var argument: String?                    // the argument element open at depth 4
        var text: [UInt8] = []
        var rootClosed = false
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                let run = bytes[index..<end]
                index = end
                if open.isEmpty {
                    guard run.allSatisfy(Self.isSpace) else { return nil }
                } else if open.count == 4 {
                    guard Self.decode(run, into: &text) else { return nil }
                } else if run.contains(UInt8(ascii: "&")) {
                    var ignored: [UInt8] = []
                    guard Self.decode(run, into: &ignored) else { return nil }
                }
                continue
            }
            // The byte after `<` tells markup from a tag: most are tags, tested first.
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if next == UInt8(ascii: "?") {
                guard skip(past: "?>") else { return nil }
            } else if next == UInt8(ascii: "!") {
                if starts(with: "<!--") {
                    guard skip(past: "-->") else { return nil }
                } else if starts(with: "<![CDATA[") {
                    index += 9
                    guard !open.isEmpty, let end = find("]]>") else { return nil }
                    if open.count == 4 { text += bytes[index..<end] }
                    index = end + 3
                } else {
                    return nil                   // a DOCTYPE: its entities are never read
                }
            } else if next == UInt8(ascii: "/") {
                index += 2
                let name = self.name()
                skipSpace()
                guard !name.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: ">"), let top = open.last,
                      bytes[top].elementsEqual(bytes[name]) else { return nil }
                index += 1
                if open.count == 4, let argument {
                    guard let value = text.withUnsafeBufferPointer(Self.utf8) else { return nil }
                    arguments[argument] = value
                }
                open.removeLast()
                if open.isEmpty { rootClosed = true }
            } else {
                index += 1
                let name = self.name()
                guard !name.isEmpty, !rootClosed, let empty = skipAttributes() else { return nil }
                open.append(name)
                // Only the action's and its arguments' names are kept; every name must be UTF-8.
                if open.count != 3 && open.count != 4 {
                    guard Self.isUTF8(UnsafeBufferPointer(rebasing: bytes[name])) else { return nil }
                } else {
                    guard let local = Self.utf8(UnsafeBufferPointer(rebasing: bytes[localName(name)])) else { return nil }
                    if open.count == 3, action == nil { action = local }
                    if open.count == 4 {
                        argument = local
                        text.removeAll(keepingCapacity: true)
                        if empty { arguments[local] = "" }
                    }
                }
                if empty {
                    open.removeLast()
                    if open.isEmpty { rootClosed = true }
                }
            }
        }
        guard open.isEmpty, rootClosed, let action else { return nil }
        return (action, arguments)
    }

    // MARK: Pieces

    private func starts(with marker: StaticString) -> Bool {
        let count = marker.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return marker.withUTF8Buffer { bytes[index..<index + count].elementsEqual($0) }
    }

    private func find(_ marker: StaticString) -> Int? {
        let count = marker.utf8CodeUnitCount
        var i = index
        while i + count <= bytes.count {
            if marker.withUTF8Buffer({ bytes[i..<i + count].elementsEqual($0) }) { return i }
            i += 1
        }
        return nil
    }

    private mutating func skip(past marker: StaticString) -> Bool {
        guard let end = find(marker) else { return false }
        index = end + marker.utf8CodeUnitCount
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    }

    /// A name's range: up to a space, `/`, `>`, `=` or `<`.
    private mutating func name() -> Range<Int> {
        let start = index
        while index < bytes.count {
            let b = bytes[index]
            if Self.isSpace(b) || b == UInt8(ascii: "/") || b == UInt8(ascii: ">") || b == UInt8(ascii: "=") || b == UInt8(ascii: "<") { break }
            index += 1
        }
        return start..<index
    }

    /// Skips a start tag's attributes to its end: true when it was an empty element (`/>`), nil when the
    /// tag is not well-formed (an attribute without a quoted value, a `<` in a value, no end).
    private mutating func skipAttributes() -> Bool? {
        while true {
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ">") { index += 1; return false }
            if starts(with: "/>") { index += 2; return true }
            guard !name().isEmpty else { return nil }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[index]
            index += 1
            guard let end = bytes[index...].firstIndex(of: quote), !bytes[index..<end].contains(UInt8(ascii: "<")) else { return nil }
            index = end + 1
        }
    }

    /// UTF-8 bytes as a String, nil when they are not UTF-8: ASCII (what envelopes are) without the generic
    /// validation, a tenth of a Browse's parsing.
    private static func utf8(_ buffer: UnsafeBufferPointer<UInt8>) -> String? {
        buffer.allSatisfy { $0 < 0x80 } ? String(decoding: buffer, as: UTF8.self) : String(validating: buffer, as: UTF8.self)
    }

    /// Whether `bytes` are UTF-8, without making the string when they are ASCII.
    private static func isUTF8(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        buffer.allSatisfy { $0 < 0x80 } || String(validating: buffer, as: UTF8.self) != nil
    }

    /// XML's white space: space, tab, line feed, carriage return.
    static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    private func localName(_ qualified: Range<Int>) -> Range<Int> {
        guard let colon = bytes[qualified].lastIndex(of: UInt8(ascii: ":")) else { return qualified }
        return (colon + 1)..<qualified.upperBound
    }

    /// Appends `run` with its references replaced; false at an unknown entity, a malformed reference or a
    /// character XML 1.0 does not allow (written or referenced).
    static func decode(_ run: Run, into out: inout [UInt8]) -> Bool {
        var i = run.startIndex
        while i < run.endIndex {
            // The bytes up to the next reference, checked, then appended at once.
            var end = i
            while end < run.endIndex, run[end] != UInt8(ascii: "&") {
                if run[end] < 0x20 && !isSpace(run[end]) { return false }
                end += 1
            }
            out.append(contentsOf: run[i..<end])
            i = end
            guard i < run.endIndex else { break }
            guard let semicolon = run[i...].firstIndex(of: UInt8(ascii: ";")), semicolon - i <= 12 else { return false }
            let reference = run[(i + 1)..<semicolon]
            i = semicolon + 1
            switch Array(reference) {
            case Array("lt".utf8): out.append(UInt8(ascii: "<"))
            case Array("gt".utf8): out.append(UInt8(ascii: ">"))
            case Array("amp".utf8): out.append(UInt8(ascii: "&"))
            case Array("quot".utf8): out.append(UInt8(ascii: "\""))
            case Array("apos".utf8): out.append(UInt8(ascii: "'"))
            default:
                guard reference.first == UInt8(ascii: "#"), let scalar = characterReference(reference.dropFirst()) else { return false }
                out += Array(String(Character(scalar)).utf8)
            }
        }
        return true
    }

    /// `#123` or `#x7B` (the `#` dropped) as a character XML 1.0 allows.
    private static func characterReference(_ digits: Run) -> Unicode.Scalar? {
        var digits = digits
        var radix: UInt32 = 10
        if digits.first == UInt8(ascii: "x") { radix = 16; digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        var value: UInt32 = 0
        for d in digits {
            guard let digit = Character(Unicode.Scalar(d)).hexDigitValue, UInt32(digit) < radix else { return nil }
            value = value * radix + UInt32(digit)
        }
        guard value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value) else { return nil }
        return Unicode.Scalar(value)
    }
}
