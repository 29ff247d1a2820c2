/// TagLib 1.13 reads MP4's `hdvd` item (HD video: 0 SD, 1 720p, 2 1080p, 3 4K) as a boolean and saves it as
/// 0 or 1: an edit of any other field turned a 1080p video's flag into 720p (issue 46). The value the file
/// had is put back into the saved bytes when TagLib saved another value of the same length; an edit that
/// names the item itself is TagLib's as before.
enum MP4FlagAtoms {
    /// The items TagLib saves as booleans whose values go beyond 1.
    static let names = ["hdvd"]

    typealias Reader = (_ offset: Int64, _ count: Int) -> [UInt8]?

    /// The value (after the `data` box's type and locale) of `name` in moov/udta/meta/ilst, and its offset.
    static func value(_ name: String, size: Int64, read: Reader) -> (offset: Int64, bytes: [UInt8])? {
        guard let moov = box("moov", in: 0..<size, read: read), let udta = box("udta", in: moov, read: read),
              let meta = box("meta", in: udta, read: read), meta.count > 4,
              let ilst = box("ilst", in: (meta.lowerBound + 4)..<meta.upperBound, read: read),
              let item = box(name, in: ilst, read: read), let data = box("data", in: item, read: read),
              data.count > 8, data.count <= 16, let bytes = read(data.lowerBound + 8, Int(data.count - 8)),
              bytes.count == Int(data.count - 8) else { return nil }
        return (data.lowerBound + 8, bytes)
    }

    /// The body of the first box of `type` directly in `range`.
    static func box(_ type: String, in range: Range<Int64>, read: Reader) -> Range<Int64>? {
        var at = range.lowerBound
        for _ in 0..<4096 {
            guard at + 8 <= range.upperBound, let h = read(at, 16), h.count >= 8 else { return nil }
            var size = Int64(h[0]) << 24 | Int64(h[1]) << 16 | Int64(h[2]) << 8 | Int64(h[3]), header: Int64 = 8
            if size == 1 {
                guard h.count == 16 else { return nil }
                size = h[8..<16].reduce(Int64(0)) { $0 << 8 | Int64($1) }
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, at + size <= range.upperBound else { return nil }
            if h[4..<8].elementsEqual(type.utf8) { return (at + header)..<(at + size) }
            at += size
        }
        return nil
    }

    /// The items' values of the original file (`read`, `size`) that TagLib cannot save (a value beyond 1).
    static func toKeep(size: Int64, read: Reader) -> [(name: String, bytes: [UInt8])] {
        names.compactMap { name in
            guard let found = value(name, size: size, read: read), found.bytes.contains(where: { $0 > 1 }) else { return nil }
            return (name, found.bytes)
        }
    }

    /// `content` (a whole new file) with the kept values put back.
    static func restore(_ content: inout [UInt8], _ kept: [(name: String, bytes: [UInt8])]) {
        for item in kept {
            let snapshot = content
            guard let found = value(item.name, size: Int64(content.count), read: { offset, count in
                      guard offset >= 0, offset < Int64(snapshot.count) else { return [] }
                      return Array(snapshot[Int(offset)..<min(snapshot.count, Int(offset) + count)])
                  }), found.bytes.count == item.bytes.count else { continue }
            content.replaceSubrange(Int(found.offset)..<(Int(found.offset) + item.bytes.count), with: item.bytes)
        }
    }

    /// `patches` (over the original, `read`, of `size` bytes) with the kept values put back: a patch changed
    /// where one holds the value now, one added where none does.
    static func restore(_ patches: inout [(offset: Int64, bytes: [UInt8])], size: Int64, read: @escaping Reader,
                        _ kept: [(name: String, bytes: [UInt8])]) {
        for item in kept {
            let current = patches
            let written: Reader = { offset, count in
                guard var bytes = read(offset, count) else { return nil }
                for patch in current {
                    let from = max(offset, patch.offset), to = min(offset + Int64(bytes.count), patch.offset + Int64(patch.bytes.count))
                    for at in Swift.stride(from: from, to: to, by: 1) { bytes[Int(at - offset)] = patch.bytes[Int(at - patch.offset)] }
                }
                return bytes
            }
            guard let found = value(item.name, size: size, read: written), found.bytes.count == item.bytes.count,
                  found.bytes != item.bytes else { continue }
            let end = found.offset + Int64(item.bytes.count)
            if let i = patches.firstIndex(where: { $0.offset <= found.offset && end <= $0.offset + Int64($0.bytes.count) }) {
                let start = Int(found.offset - patches[i].offset)
                patches[i].bytes.replaceSubrange(start..<(start + item.bytes.count), with: item.bytes)
            } else {
                patches.append((found.offset, item.bytes))
            }
        }
        // A patch that now writes the bytes the file already has writes nothing.
        patches.removeAll { patch in read(patch.offset, patch.bytes.count) == patch.bytes }
    }
}
