/// The text frames of an ID3v2.3 tag that has an extended header. In v2.3 the extended header's size (6 or
/// 10) leaves out its own 4 size bytes; TagLib 1.13 reads it as v2.4's, which counts them, starts the frames
/// 4 bytes early, finds padding and keeps no frame: the file shows its ID3v1 tag ("Title v1") or nothing,
/// where ffprobe, mediainfo and mutagen read the v2 frames. Read here instead, only for such a tag.
enum ID3v23Frames {
    /// TagLib's PropertyMap names for the text frames (its `Frame::frameIDToKey`, v2.3's TYER as DATE).
    static let keys: [String: String] = [
        "TIT1": "CONTENTGROUP", "TIT2": "TITLE", "TIT3": "SUBTITLE", "TPE1": "ARTIST", "TPE2": "ALBUMARTIST",
        "TPE3": "CONDUCTOR", "TPE4": "REMIXER", "TALB": "ALBUM", "TRCK": "TRACKNUMBER", "TPOS": "DISCNUMBER",
        "TCON": "GENRE", "TYER": "DATE", "TDRC": "DATE", "TCOM": "COMPOSER", "TEXT": "LYRICIST", "TBPM": "BPM",
        "TPUB": "LABEL", "TCOP": "COPYRIGHT", "TENC": "ENCODEDBY", "TSRC": "ISRC", "TSSE": "ENCODING",
        "TOPE": "ORIGINALARTIST", "TOAL": "ORIGINALALBUM", "TORY": "ORIGINALDATE", "TKEY": "INITIALKEY",
        "TLAN": "LANGUAGE", "TMED": "MEDIA", "TSOA": "ALBUMSORT", "TSOP": "ARTISTSORT", "TSOT": "TITLESORT",
        "TSO2": "ALBUMARTISTSORT", "TSOC": "COMPOSERSORT", "TCMP": "COMPILATION",
    ]

    /// The tags of the ID3v2.3 tag at the start of `file` when it has an extended header; [] otherwise.
    static func read(_ file: MediaFile) -> [(String, String)] {
        let h = file.bytes(at: 0, count: 10)
        guard h.count == 10, h.starts(with: Array("ID3".utf8)), h[3] == 3, h[5] & 0x40 != 0 else { return [] }
        let size = h[6...9].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        var tag = file.bytes(at: 10, count: size)
        if h[5] & 0x80 != 0 {                                   // unsynchronised: every FF 00 was FF
            var out: [UInt8] = []
            out.reserveCapacity(tag.count)
            for (i, b) in tag.enumerated() where !(b == 0 && i > 0 && tag[i - 1] == 0xFF) { out.append(b) }
            tag = out
        }
        guard tag.count >= 4 else { return [] }
        var at = 4 + be32(tag, 0)                               // the extended header, its size field included
        var tags: [(String, String)] = []
        while at + 10 <= tag.count, tag[at] != 0 {
            let id = String(decoding: tag[at..<at + 4], as: UTF8.self), length = be32(tag, at + 4)
            let flags = tag[at + 9]
            let start = at + 10 + (flags & 0x20 != 0 ? 1 : 0)    // a grouping byte
            at += 10 + length
            guard length > 0, at <= tag.count, start < at else { break }
            // Compressed or encrypted frames are not text to read here.
            guard flags & 0xC0 == 0, id.first == "T", id != "TXXX", let key = keys[id] else { continue }
            for value in text(tag[start..<at]) where !value.isEmpty { tags.append((key, value)) }
        }
        return tags
    }

    /// A text frame's body: its encoding byte, then one or more strings separated by a null.
    static func text(_ body: ArraySlice<UInt8>) -> [String] {
        guard let encoding = body.first else { return [] }
        let bytes = body.dropFirst()
        switch encoding {
        case 1, 2:
            var units: [UInt16] = []
            var bigEndian = encoding == 2
            var i = bytes.startIndex
            while i + 1 < bytes.endIndex {
                let unit = bigEndian ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i])
                i += 2
                if unit == 0xFEFF { continue }
                if unit == 0xFFFE { bigEndian.toggle(); continue }  // a BOM read the wrong way round
                units.append(unit)
            }
            return String(decoding: units, as: UTF16.self).split(separator: "\0").map { String($0).trimmed }
        case 3:
            return String(decoding: bytes, as: UTF8.self).split(separator: "\0").map { String($0).trimmed }
        default:
            return bytes.split(separator: 0).map { WindowsText.windows1252($0).trimmed }   // ISO-8859-1 (and what is written as such)
        }
    }

    private static func be32(_ b: [UInt8], _ i: Int) -> Int {
        guard i + 4 <= b.count else { return Int.max / 2 }
        return Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }
}
