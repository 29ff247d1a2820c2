/// The RIFF `LIST/INFO` chunk of a WAV file, read natively for the two fields TagLib 1.13 shortens: the
/// full creation date (`ICRD` "2003-05-17", which TagLib reduces to the year) and the track with its total
/// (`IPRT`/`ITRK` "5/12", which TagLib reduces to the number), and for text in Windows-1252, which TagLib
/// drops. FFmpeg reads them whole, but the scanner's fast path does not open FFmpeg: both paths take them
/// from here.
enum RIFFInfo {
    /// What the chunks say: canonical tags ("DATE", "TRACKNUMBER"), the format's byte rate and the data chunk.
    struct Chunks {
        var tags: [(String, String)] = []
        var byteRate: Int?
        /// The declared size of the data chunk (nil when unknown: 0 or 0xFFFFFFFF, as streaming writers leave it).
        var dataSize: Int64?
        var dataStart: Int64 = 0
    }

    static func read(_ file: MediaFile) -> Chunks {
        var out = Chunks()
        let header = file.bytes(at: 0, count: 12)
        guard header.count == 12, header[0..<4].elementsEqual("RIFF".utf8), header[8..<12].elementsEqual("WAVE".utf8) else { return out }
        var at: Int64 = 12
        for _ in 0..<64 {                                        // a real file has a handful of chunks
            let h = file.bytes(at: at, count: 12)
            guard h.count >= 8 else { break }
            let size = Int64(le32(h, 4))
            switch String(decoding: h[0..<4], as: UTF8.self) {
            case "LIST" where h.count == 12 && h[8..<12].elementsEqual("INFO".utf8) && size <= 1 << 20:
                out.tags += fields(file.bytes(at: at + 12, count: Int(size) - 4))   // some writers split INFO in two
            case "fmt ":
                let f = file.bytes(at: at + 8, count: 16)
                if f.count == 16 { out.byteRate = Int(le32(f, 8)) }
            case "data":
                out.dataStart = at + 8
                out.dataSize = size == 0 || size == 0xFFFF_FFFF ? file.facts.size - at - 8 : size
            default: break
            }
            at += 8 + size + size % 2
            guard at < file.facts.size else { break }
        }
        return out
    }

    static func fields(_ b: [UInt8]) -> [(String, String)] {
        var out: [(String, String)] = []
        var i = 0
        while i + 8 <= b.count {
            let id = String(decoding: b[i..<i + 4], as: UTF8.self), size = Int(le32(b, i + 4))
            guard size >= 0, i + 8 + size <= b.count else { break }
            let bytes = b[(i + 8)..<(i + 8 + size)].prefix { $0 != 0 }
            let text = WindowsText.decode(bytes).trimmed
            switch id {
            case "ICRD" where !text.isEmpty: out.append(("DATE", text))
            case "IPRT", "ITRK": if !text.isEmpty { out.append(("TRACKNUMBER", text)) }
            // Text TagLib reads itself when it is UTF-8; Windows taggers write the ANSI code page (cp1252),
            // which TagLib drops and FFmpeg shows as U+FFFD: read here then.
            default: if !text.isEmpty, !WindowsText.isUTF8(bytes), let key = textKeys[id] { out.append((key, text)) }
            }
            i += 8 + size + size % 2
        }
        return out
    }

    /// TagLib's PropertyMap names for the RIFF INFO text fields.
    static let textKeys: [String: String] = [
        "INAM": "TITLE", "IART": "ARTIST", "IPRD": "ALBUM", "ICMT": "COMMENT", "IGNR": "GENRE", "ICOP": "COPYRIGHT",
        "IENG": "ENGINEER", "ISFT": "ENCODING", "ICMS": "COMMISSIONED", "ISRC": "SOURCE", "ILNG": "LANGUAGE",
        "IMUS": "COMPOSER", "ILYC": "LYRICIST", "IBPM": "BPM",
    ]

    private static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
}
