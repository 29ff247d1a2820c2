/// The 3GPP asset boxes in `moov/udta` (3GPP TS 26.244: `titl`, `perf`, `auth`, `gnre`, `albm`, `yrrc`,
/// `dscp`, `cprt`), which phones and ffmpeg's 3gp muxer write instead of iTunes atoms. Neither FFmpeg 5.1
/// nor TagLib 1.13 reads them (mediainfo does): a `.3gp` showed no tags at all.
enum ThreeGPPAssets {
    static let keys: [String: String] = [
        "titl": "TITLE", "perf": "ARTIST", "auth": "AUTHOR", "gnre": "GENRE", "albm": "ALBUM", "dscp": "DESCRIPTION",
        "cprt": "COPYRIGHT", "yrrc": "DATE",
    ]
    /// A `moov` larger than this is not read for its tags (a long video's sample tables).
    static let moovLimit: Int64 = 16 << 20

    /// - Parameter moov: the body of the file's `moov` box (`moov(_:)`).
    static func read(moov: ArraySlice<UInt8>?) -> [(String, String)] {
        guard let moov, let udta = child(moov, "udta") else { return [] }
        return assets(udta)
    }

    /// The body of the file's `moov` box (nil: none among the first 64 top-level boxes, or one larger than
    /// `moovLimit`). Read once per file, for these tags and for MP4SampleEntries.
    static func moov(_ file: MediaFile) -> ArraySlice<UInt8>? {
        var at: Int64 = 0
        for _ in 0..<64 {                                        // top-level boxes: ftyp, mdat, moov, free…
            let h = file.bytes(at: at, count: 16)
            guard h.count >= 8 else { return nil }
            var size = be(h[0..<4]), header: Int64 = 8
            if size == 1, h.count == 16 { size = be(h[8..<16]); header = 16 }
            if size == 0 { size = file.facts.size - at }
            guard size >= header else { return nil }
            if h[4..<8].elementsEqual("moov".utf8) {
                guard size <= moovLimit else { return nil }
                return file.bytes(at: at + header, count: Int(size - header))[...]
            }
            at += size
        }
        return nil
    }

    /// The body of the first child box named `name` of `b` (a box's body).
    static func child(_ b: ArraySlice<UInt8>, _ name: String) -> ArraySlice<UInt8>? {
        var at = b.startIndex
        while at + 8 <= b.endIndex {
            let size = Int(be(b[at..<at + 4]))
            guard size >= 8, at + size <= b.endIndex else { return nil }
            if b[(at + 4)..<(at + 8)].elementsEqual(name.utf8) { return b[(at + 8)..<(at + size)] }
            at += size
        }
        return nil
    }

    static func assets(_ udta: ArraySlice<UInt8>) -> [(String, String)] {
        var out: [(String, String)] = []
        var at = udta.startIndex
        while at + 8 <= udta.endIndex {
            let size = Int(be(udta[at..<at + 4]))
            guard size >= 8, at + size <= udta.endIndex else { break }
            let name = String(decoding: udta[(at + 4)..<(at + 8)], as: UTF8.self)
            let body = udta[(at + 8)..<(at + size)]                 // version and flags, then the fields
            at += size
            guard let key = keys[name], body.count > 6 else { continue }
            if name == "yrrc" {
                out.append((key, String(be(body.dropFirst(4).prefix(2)))))
                continue
            }
            let text = body.dropFirst(6)                             // + the packed ISO-639 language
            let value: String
            if text.starts(with: [0xFE, 0xFF]) {                     // UTF-16 with its BOM, null-terminated
                var units: [UInt16] = []
                var i = text.startIndex + 2
                while i + 1 < text.endIndex {
                    let u = UInt16(text[i]) << 8 | UInt16(text[i + 1])
                    if u == 0 { break }
                    units.append(u)
                    i += 2
                }
                value = String(decoding: units, as: UTF16.self)
            } else {
                let bytes = text.prefix { $0 != 0 }
                value = WindowsText.decode(bytes)
                // `albm` may end with a track number byte after the string's null.
                if name == "albm", text.count == bytes.count + 2, let track = text.last, track > 0 {
                    out.append(("TRACKNUMBER", String(track)))
                }
            }
            if !value.trimmed.isEmpty { out.append((key, value.trimmed)) }
        }
        return out
    }

    private static func be(_ b: ArraySlice<UInt8>) -> Int64 { b.reduce(Int64(0)) { $0 << 8 | Int64($1) } }
}
