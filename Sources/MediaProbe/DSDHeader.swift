/// DSD audio in DSF (Sony: "DSD " and "fmt " chunks, little-endian, an ID3v2 tag at the end) and DSDIFF
/// (.dff, Philips: an IFF "FRM8" form, big-endian, the ID3v2 tag in an "ID3 " chunk), read from the headers.
/// FFmpeg 5.1 reads both as PCM at an eighth of the DSD rate (352.8 kHz for DSD64), takes DSF's block
/// padding and DFF's chunks after the audio for audio (0.368 s for 0.107), and does not read DFF's ID3
/// chunk; TagLib 1.13 reads neither. The length here is the sample count over the DSD rate (2.8224 MHz…),
/// of the audio present (a file cut short is flagged, its declared length kept in `declaredDuration`).
struct DSDHeader {
    enum Kind { case dsf, dff }
    var kind: Kind
    /// The DSD sample rate (2,822,400 for DSD64).
    var dsdRate: Int
    var channels: Int
    /// Samples per channel the header declares.
    var samples: Int64
    /// DST-compressed DSDIFF: its frame count and frame rate stand for the length.
    var dstSeconds: Double?
    /// Where the ID3v2 tag starts, when there is one.
    var id3v2At: Int64?
    /// The audio data's bytes: declared and present in the file.
    var declaredBytes: Int64
    var presentBytes: Int64

    var declaredDuration: Double { dstSeconds ?? Double(samples) / Double(dsdRate) }
    /// The length of the audio present.
    var duration: Double {
        guard presentBytes < declaredBytes, declaredBytes > 0 else { return declaredDuration }
        return declaredDuration * Double(presentBytes) / Double(declaredBytes)
    }
    var isTruncated: Bool { presentBytes < declaredBytes }
    var codec: String { kind == .dsf ? "dsd_lsbf_planar" : dstSeconds != nil ? "dst" : "dsd_msbf" }

    static func read(_ file: MediaFile) -> DSDHeader? {
        let h = file.head
        guard h.count >= 16 else { return nil }
        if h.starts(with: Array("DSD ".utf8)) { return dsf(file, h) }
        if h.starts(with: Array("FRM8".utf8)), h[12..<16].elementsEqual("DSD ".utf8) { return dff(file) }
        return nil
    }

    private static func le(_ b: [UInt8], _ at: Int, _ n: Int) -> Int64 {
        (0..<n).reversed().reduce(Int64(0)) { $0 << 8 | Int64(b[at + $1]) }
    }
    private static func be(_ b: [UInt8], _ at: Int, _ n: Int) -> Int64 {
        (0..<n).reduce(Int64(0)) { $0 << 8 | Int64(b[at + $1]) }
    }

    private static func dsf(_ file: MediaFile, _ h: [UInt8]) -> DSDHeader? {
        guard h.count >= 92, h[28..<32].elementsEqual("fmt ".utf8), h[80..<84].elementsEqual("data".utf8) else { return nil }
        let rate = Int(le(h, 56, 4)), channels = Int(le(h, 52, 4)), samples = le(h, 64, 8)
        let block = le(h, 72, 4), metadata = le(h, 20, 8)
        guard rate > 0, (1...8).contains(channels), samples >= 0, block > 0 else { return nil }
        // Each channel's samples fill whole blocks; a file cut short holds fewer of them.
        let perChannel = (samples + 7) / 8
        let declared = (perChannel + block - 1) / block * block * Int64(channels)
        let dataEnd = metadata > 92 ? min(metadata, file.facts.size) : file.facts.size
        return DSDHeader(kind: .dsf, dsdRate: rate, channels: channels, samples: samples,
                         id3v2At: metadata > 0 && metadata < file.facts.size ? metadata : nil,
                         declaredBytes: declared, presentBytes: min(declared, max(0, dataEnd - 92)))
    }

    private static func dff(_ file: MediaFile) -> DSDHeader? {
        let size = file.facts.size
        var header = DSDHeader(kind: .dff, dsdRate: 0, channels: 0, samples: 0, declaredBytes: 0, presentBytes: 0)
        var at: Int64 = 16
        for _ in 0..<64 where at + 12 <= size {
            let c = file.bytes(at: at, count: 12)
            guard c.count == 12 else { break }
            let id = String(decoding: c[0..<4], as: UTF8.self), length = be(c, 4, 8)
            guard length >= 0 else { break }
            switch id {
            case "PROP":
                // "SND ", then the property chunks.
                var p = at + 16
                let end = min(size, at + 12 + length)
                while p + 12 <= end {
                    let s = file.bytes(at: p, count: 16)
                    guard s.count >= 12 else { break }
                    let sid = String(decoding: s[0..<4], as: UTF8.self), slength = be(s, 4, 8)
                    if sid == "FS  ", s.count >= 16 { header.dsdRate = Int(be(s, 12, 4)) }
                    if sid == "CHNL", s.count >= 14 { header.channels = Int(be(s, 12, 2)) }
                    guard slength >= 0 else { break }
                    p += 12 + slength + (slength & 1)
                }
            case "DSD ":
                header.declaredBytes = length
                header.presentBytes = min(length, max(0, size - at - 12))
            case "DST ":
                let frte = file.bytes(at: at + 12, count: 18)
                if frte.count == 18, frte[0..<4].elementsEqual("FRTE".utf8) {
                    let frames = be(frte, 12, 4), rate = be(frte, 16, 2)
                    if rate > 0 { header.dstSeconds = Double(frames) / Double(rate) }
                }
                header.declaredBytes = length
                header.presentBytes = min(length, max(0, size - at - 12))
            case "ID3 ":
                header.id3v2At = at + 12
            default:
                break
            }
            at += 12 + length + (length & 1)
        }
        guard header.dsdRate > 0, header.channels > 0, header.declaredBytes > 0 else { return nil }
        header.samples = header.declaredBytes * 8 / Int64(header.channels)
        return header
    }
}
