/// What an MP4's sample entries say that FFmpeg 5.1 does not act on: a track's protection scheme (ISO/IEC
/// 23001-7, CENC). FFmpeg names an encrypted AAC track `aac` (from its `frma` box) and, with no key, hands the
/// encrypted samples to the decoder, which decodes nothing: mlib read such a file as a playable AAC file.
enum MP4SampleEntries {
    /// Per track, in `moov`'s order (FFmpeg's stream order): the protection scheme of its first sample entry
    /// ("cenc", "cbcs"…), or nil when it is not protected.
    /// - Parameter moov: the body of the file's `moov` box (`ThreeGPPAssets.moov`).
    static func protectionSchemes(moov: ArraySlice<UInt8>?) -> [String?] {
        guard let moov else { return [] }
        var out: [String?] = []
        var at = moov.startIndex
        while at + 8 <= moov.endIndex {
            let size = Int(be(moov[at..<at + 4]))
            guard size >= 8, at + size <= moov.endIndex else { break }
            if moov[(at + 4)..<(at + 8)].elementsEqual("trak".utf8) { out.append(scheme(trak: moov[(at + 8)..<(at + size)])) }
            at += size
        }
        return out
    }

    private static func scheme(trak: ArraySlice<UInt8>) -> String? {
        var box = trak
        for name in ["mdia", "minf", "stbl", "stsd"] {
            guard let body = ThreeGPPAssets.child(box, name) else { return nil }
            box = body
        }
        // stsd: version and flags, entry count, then the entries.
        let entry = box.dropFirst(8)
        guard entry.count >= 8 else { return nil }
        let size = min(Int(be(entry.prefix(4))), entry.count)
        let type = String(decoding: entry.dropFirst(4).prefix(4), as: UTF8.self)
        // The children follow the sample entry's fields: an audio entry's 28 bytes (36 and 56 for QuickTime's
        // sound entry versions 1 and 2), a visual entry's 78.
        let fields: Int
        switch type {
        case "enca":
            guard size >= 26 else { return nil }
            let version = be(entry.dropFirst(16).prefix(2))
            fields = version == 1 ? 44 : version == 2 ? 64 : 28
        case "encv": fields = 78
        default: return nil
        }
        guard size > 8 + fields, let sinf = ThreeGPPAssets.child(entry.prefix(size).dropFirst(8 + fields), "sinf") else { return "unknown" }
        guard let schm = ThreeGPPAssets.child(sinf, "schm"), schm.count >= 8 else { return "unknown" }
        return String(decoding: schm.dropFirst(4).prefix(4), as: UTF8.self)
    }

    private static func be(_ b: ArraySlice<UInt8>) -> Int64 { b.reduce(Int64(0)) { $0 << 8 | Int64($1) } }
}
