/// TagLib 1.13 saves each of ASF's five content-description fields (title, author, copyright, description,
/// rating) with a terminating UTF-16 NUL, an empty one as two bytes; FFmpeg and Windows Media write an empty
/// field as no bytes at all. mutagen then reads the two bytes as a field that is there and empty: an edit of
/// the title gave an FFmpeg-written WMA a `Copyright` and a `Rating` it did not have (issue 46). In a
/// rewritten file, each field that was empty (length 0) in the original and is an empty string now is put
/// back at length 0, and the sizes that hold it (the object's, the header's, the file's in File Properties)
/// shrink by as much.
enum ASFEmptyFields {
    static let header: [UInt8] = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C]
    static let contentDescription: [UInt8] = [0x33, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C]
    static let fileProperties: [UInt8] = [0xA1, 0xDC, 0xAB, 0x8C, 0x47, 0xA9, 0xCF, 0x11, 0x8E, 0xE4, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65]

    typealias Reader = (_ offset: Int64, _ count: Int) -> [UInt8]?

    /// The header's child objects: GUID and offset, for a file whose first bytes `read` gives.
    static func objects(size: Int64, read: Reader) -> [(guid: [UInt8], offset: Int64, size: Int64)]? {
        guard let top = read(0, 30), top.count == 30, Array(top[0..<16]) == header else { return nil }
        let end = min(size, Int64(le(top, 16, 8)))
        var out: [(guid: [UInt8], offset: Int64, size: Int64)] = []
        var at: Int64 = 30
        for _ in 0..<Int(le(top, 24, 4)) {
            guard at + 24 <= end, let h = read(at, 24), h.count == 24 else { return nil }
            let length = Int64(le(h, 16, 8))
            guard length >= 24, at + length <= end else { return nil }
            out.append((Array(h[0..<16]), at, length))
            at += length
        }
        return out
    }

    /// The five field lengths of the content description, and where the object is.
    static func lengths(size: Int64, read: Reader) -> (offset: Int64, lengths: [Int])? {
        guard let object = objects(size: size, read: read)?.first(where: { $0.guid == contentDescription }),
              object.size >= 34, let b = read(object.offset + 24, 10), b.count == 10 else { return nil }
        return (object.offset, (0..<5).map { Int(le(b, 2 * $0, 2)) })
    }

    /// `content` (the whole new file) with the fields empty before put back at length 0.
    static func restore(_ content: inout [UInt8], original: Reader, originalSize: Int64) {
        let new: Reader = { [content] offset, count in
            guard offset >= 0, offset < Int64(content.count) else { return [] }
            return Array(content[Int(offset)..<min(content.count, Int(offset) + count)])
        }
        guard let old = lengths(size: originalSize, read: original), let now = lengths(size: Int64(content.count), read: new),
              let fileProperties = objects(size: Int64(content.count), read: new)?.first(where: { $0.guid == Self.fileProperties }) else { return }
        guard Int(now.offset) + 34 + now.lengths.reduce(0, +) <= content.count else { return }
        var at = Int(now.offset) + 34, removed = 0
        var fixed = Array(content[0..<(Int(now.offset) + 24)])
        var lengths = now.lengths
        for i in 0..<5 {
            let string = Array(content[at..<(at + now.lengths[i])])
            at += now.lengths[i]
            if old.lengths[i] == 0 && string == [0, 0] {
                lengths[i] = 0
                removed += 2
            }
        }
        guard removed > 0 else { return }
        for i in 0..<5 { fixed += [UInt8(lengths[i] & 0xFF), UInt8(lengths[i] >> 8)] }
        at = Int(now.offset) + 34
        for i in 0..<5 {
            if lengths[i] > 0 { fixed += content[at..<(at + now.lengths[i])] }
            at += now.lengths[i]
        }
        fixed += content[at...]
        func shrink(_ offset: Int) {
            put(&fixed, offset, 8, le(fixed, offset, 8) - UInt64(removed))
        }
        shrink(16)                                        // the header's size
        shrink(Int(now.offset) + 16)                      // the content description's
        // File Properties' file size (the object after the description moved back by `removed`).
        let fpo = Int(fileProperties.offset) - (fileProperties.offset > now.offset ? removed : 0)
        if fixed.count >= fpo + 48 { shrink(fpo + 40) }
        content = fixed
    }

    static func le(_ b: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
        (0..<count).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(b[at + $1]) }
    }

    static func put(_ b: inout [UInt8], _ at: Int, _ count: Int, _ value: UInt64) {
        for i in 0..<count { b[at + i] = UInt8((value >> (8 * UInt64(i))) & 0xFF) }
    }
}
