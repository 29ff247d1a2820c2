/// The text of a lyrics sidecar, whose encoding nothing declares: a byte order mark says UTF-8, UTF-16 LE/BE
/// or UTF-32 LE/BE; without one, valid UTF-8 is UTF-8; else (an old Windows tool's file) the bytes are
/// Windows-1252, a superset of Latin-1's printable range (`WindowsText`). UTF-16 without a BOM is
/// recognised by its zero bytes (every other byte of ASCII text).
enum LyricsText {
    static func decode(_ bytes: [UInt8]) -> (text: String, encoding: String) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (WindowsText.decode(bytes.dropFirst(3)), "UTF-8") }
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) { return (utf32(bytes.dropFirst(4), bigEndian: false), "UTF-32LE") }
        if bytes.starts(with: [0, 0, 0xFE, 0xFF]) { return (utf32(bytes.dropFirst(4), bigEndian: true), "UTF-32BE") }
        if bytes.starts(with: [0xFF, 0xFE]) { return (utf16(bytes.dropFirst(2), bigEndian: false), "UTF-16LE") }
        if bytes.starts(with: [0xFE, 0xFF]) { return (utf16(bytes.dropFirst(2), bigEndian: true), "UTF-16BE") }
        if bytes.count >= 4 {
            let sample = bytes.prefix(256)
            let evenZeros = stride(from: 0, to: sample.count, by: 2).filter { sample[sample.startIndex + $0] == 0 }.count
            let oddZeros = stride(from: 1, to: sample.count, by: 2).filter { sample[sample.startIndex + $0] == 0 }.count
            let half = sample.count / 2
            if oddZeros * 2 > half && evenZeros == 0 { return (utf16(bytes[...], bigEndian: false), "UTF-16LE") }
            if evenZeros * 2 > half && oddZeros == 0 { return (utf16(bytes[...], bigEndian: true), "UTF-16BE") }
        }
        if WindowsText.isUTF8(bytes) { return (String(decoding: bytes, as: UTF8.self), "UTF-8") }
        return (WindowsText.windows1252(bytes), "Windows-1252")
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i + 1 < bytes.endIndex {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    private static func utf32(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var scalars = String.UnicodeScalarView()
        var i = bytes.startIndex
        while i + 3 < bytes.endIndex {
            let b = (0..<4).map { UInt32(bytes[i + $0]) }
            let v = bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
            scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
            i += 4
        }
        return String(scalars)
    }
}
