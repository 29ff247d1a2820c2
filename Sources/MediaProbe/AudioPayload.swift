/// The first bytes of a file's audio payload, found through its container: what a retag leaves as it was
/// even when it rewrites both ends of the file (an ID3v2 tag at the head and an ID3v1 tag at the tail, an
/// AIFF's FORM size and its ID3 chunk, a Matroska file remuxed with a new title). The scanner hashes them
/// (`Fingerprint`) as the evidence "the same audio stream" for a file retagged and renamed (issue 24 case 6).
///
/// Covered: MP3 and ADTS (after ID3v2 tags and a Xing/Info/VBRI frame, whose counts a remuxer writes
/// afresh), FLAC (after the metadata blocks), WAV/RF64 (`data`), AIFF/AIFC (`SSND`), MP4/M4A (`mdat`),
/// Matroska/WebM (the frames of the first blocks, without their block headers), Ogg (the bodies of the
/// pages after the header pages: a longer comment renumbers the pages and rewrites their checksums).
/// Others (APE, WavPack, DSF, …) have none: their tags sit at one end, and the end hashes cover them.
///
/// Leading zeros are skipped (a track that starts in digital silence): the window starts at the first
/// non-zero byte within the first MiB of the payload, and a payload of zeros has no window at all (equal
/// silence says nothing about two files).
public enum AudioPayload {
    /// As many bytes as `Fingerprint`'s end windows: told apart every file the end hashes tell apart.
    public static let window = 16384
    /// A payload shorter than this (after its leading zeros) gives no window: too little to tell files apart.
    static let minimum = 4096
    /// How far into the payload a first non-zero byte is looked for.
    static let zeroSearchLimit = 1 << 20

    /// Up to `window` bytes of the audio payload from its first non-zero byte, or nil (a format it does not
    /// cover, a payload of zeros or shorter than `minimum`, a damaged container).
    public static func leadingBytes(of file: MediaFile) -> [UInt8]? {
        let head = file.head
        guard head.count >= 12 else { return nil }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return withoutLeadingZeros(matroskaFrames(file)) }
        if head.starts(with: Array("OggS".utf8)) { return withoutLeadingZeros(oggAudioPages(file)) }
        guard let range = payloadRange(file, head) else { return nil }
        return window(file, from: range.start, to: range.end)
    }

    /// Where the payload of a contiguous format lies.
    static func payloadRange(_ file: MediaFile, _ head: [UInt8]) -> (start: Int64, end: Int64)? {
        let size = file.facts.size
        let magic = String(decoding: head[0..<4], as: UTF8.self), form = String(decoding: head[8..<12], as: UTF8.self)
        switch magic {
        case "RIFF" where form == "WAVE", "RF64" where form == "WAVE":
            return chunk("data", in: file, from: 12, end: size, bigEndian: false)
        case "FORM" where form == "AIFF" || form == "AIFC":
            // SSND starts with its offset to the first sample and a block size.
            guard let ssnd = chunk("SSND", in: file, from: 12, end: size, bigEndian: true) else { return nil }
            let offset = Int64(be32(file.bytes(at: ssnd.start, count: 4), 0) ?? 0)
            return (ssnd.start + 8 + offset, ssnd.end)
        default: break
        }
        if String(decoding: head[4..<8], as: UTF8.self) == "ftyp" { return mp4Data(file) }
        var start = id3v2End(file)
        if file.bytes(at: start, count: 4).elementsEqual("fLaC".utf8) { return flacFrames(file, from: start + 4) }
        guard FormatSniffer.mpegAudioLayer(file.bytes(at: start, count: 4)) != nil
            || isADTS(file.bytes(at: start, count: 2)) else { return nil }
        start += infoFrameLength(file, at: start)
        return (start, mpegEnd(file))
    }

    // MARK: contiguous payloads

    /// The chunk `id` of a RIFF (little-endian sizes) or IFF (big-endian) file, from `offset`; an RF64 or
    /// streamed `data` of unknown size (0xFFFFFFFF) runs to the end.
    static func chunk(_ id: String, in file: MediaFile, from offset: Int64, end: Int64, bigEndian: Bool) -> (start: Int64, end: Int64)? {
        var at = offset
        for _ in 0..<64 {
            let header = file.bytes(at: at, count: 8)
            guard header.count == 8, let size32 = bigEndian ? be32(header, 4) : le32(header, 4) else { return nil }
            let size = Int64(size32)
            if header[0..<4].elementsEqual(id.utf8) {
                return (at + 8, size32 == 0xFFFF_FFFF ? end : min(end, at + 8 + size))
            }
            at += 8 + size + (size & 1)            // chunks are padded to an even length
            guard at < end else { return nil }
        }
        return nil
    }

    /// The first `mdat` box of an MP4 (top-level boxes; a 64-bit size when the 32-bit one is 1).
    static func mp4Data(_ file: MediaFile) -> (start: Int64, end: Int64)? {
        let size = file.facts.size
        var at: Int64 = 0
        for _ in 0..<64 {
            let header = file.bytes(at: at, count: 16)
            guard header.count >= 8, let size32 = be32(header, 0) else { return nil }
            var length = Int64(size32), body = at + 8
            if size32 == 1 {
                guard header.count == 16, let high = be32(header, 8), let low = be32(header, 12) else { return nil }
                length = Int64(high) << 32 | Int64(low)
                body = at + 16
            } else if size32 == 0 {
                length = size - at
            }
            if header[4..<8].elementsEqual("mdat".utf8) { return (body, min(size, at + length)) }
            guard length >= 8 else { return nil }
            at += length
            guard at < size else { return nil }
        }
        return nil
    }

    /// The frames after FLAC's metadata blocks (each: a last-block flag and type, a 24-bit length).
    static func flacFrames(_ file: MediaFile, from offset: Int64) -> (start: Int64, end: Int64)? {
        var at = offset
        for _ in 0..<1024 {
            let header = file.bytes(at: at, count: 4)
            guard header.count == 4 else { return nil }
            at += 4 + (Int64(header[1]) << 16 | Int64(header[2]) << 8 | Int64(header[3]))
            if header[0] & 0x80 != 0 { return at < file.facts.size ? (at, file.facts.size) : nil }
        }
        return nil
    }

    /// Where the ID3v2 tags at the head end (several may follow each other), or 0.
    static func id3v2End(_ file: MediaFile) -> Int64 {
        var at: Int64 = 0
        while true {
            let h = file.bytes(at: at, count: 10)
            guard h.count == 10, h.starts(with: Array("ID3".utf8)), h[6..<10].allSatisfy({ $0 < 0x80 }) else { return at }
            let size = Int64(h[6]) << 21 | Int64(h[7]) << 14 | Int64(h[8]) << 7 | Int64(h[9])
            at += 10 + size + (h[5] & 0x10 != 0 ? 10 : 0)      // a footer follows when flagged
        }
    }

    /// The end of an MPEG stream: before an ID3v1 tag and an APEv2 tag at the tail.
    static func mpegEnd(_ file: MediaFile) -> Int64 {
        var end = file.facts.size
        if file.bytes(at: end - 128, count: 3).elementsEqual("TAG".utf8) { end -= 128 }
        let ape = file.bytes(at: end - 32, count: 32)
        if ape.count == 32, ape.starts(with: Array("APETAGEX".utf8)), let size = le32(ape, 12) {
            end -= Int64(size) + (le32(ape, 20).map { $0 & 0x8000_0000 != 0 } == true ? 32 : 0)
        }
        return end
    }

    /// The length of a first MPEG frame that holds a Xing/Info or VBRI header (not audio: its counts and
    /// encoder name are written afresh by whatever wrote the file), else 0.
    static func infoFrameLength(_ file: MediaFile, at offset: Int64) -> Int64 {
        let b = file.bytes(at: offset, count: 64)
        guard b.count == 64, let header = MPEGAudioHeader.parse(b) else { return 0 }
        let mono = header.channels == 1
        let side = header.version == 1 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        let tagged = [4 + side, 6 + side, 36].contains { at in
            let tag = b[at..<at + 4]
            return tag.elementsEqual("Xing".utf8) || tag.elementsEqual("Info".utf8) || tag.elementsEqual("VBRI".utf8)
        }
        return tagged ? Int64(header.frameBytes) : 0
    }

    static func isADTS(_ b: [UInt8]) -> Bool { b.count == 2 && b[0] == 0xFF && b[1] & 0xF6 == 0xF0 }

    /// `window` bytes of `start..<end` from its first non-zero byte.
    static func window(_ file: MediaFile, from start: Int64, to end: Int64) -> [UInt8]? {
        var at = start
        while at < end, at - start < Int64(zeroSearchLimit) {
            let chunk = file.bytes(at: at, count: Int(min(Int64(window), end - at)))
            guard !chunk.isEmpty else { return nil }
            if let first = chunk.firstIndex(where: { $0 != 0 }) {
                let bytes = first == 0 ? chunk : file.bytes(at: at + Int64(first), count: Int(min(Int64(window), end - at - Int64(first))))
                return bytes.count >= minimum ? bytes : nil
            }
            at += Int64(chunk.count)
        }
        return nil
    }

    static func withoutLeadingZeros(_ bytes: [UInt8]) -> [UInt8]? {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return nil }
        let rest = bytes[first..<min(bytes.count, first + window)]
        return rest.count >= minimum ? Array(rest) : nil
    }

    // MARK: packetised payloads

    /// The frame bytes of the first blocks of the first clusters (block headers left out: a remux may
    /// renumber tracks), up to two windows (leading zeros are skipped after).
    static func matroskaFrames(_ file: MediaFile) -> [UInt8] {
        var out: [UInt8] = []
        let size = file.facts.size
        // The EBML header, then the Segment.
        guard let ebml = element(file, at: 0), let segment = element(file, at: ebml.dataStart + ebml.size),
              segment.id == 0x1853_8067 else { return [] }
        var at = segment.dataStart
        var elements = 0
        while at < size, out.count < 2 * window, elements < 4096 {
            elements += 1
            guard let e = element(file, at: at) else { break }
            switch e.id {
            case 0x1F43_B675, 0xA0:                          // Cluster, BlockGroup: look inside
                at = e.dataStart
            case 0xA3, 0xA1:                                 // SimpleBlock, Block: track number, timecode, flags
                let body = file.bytes(at: e.dataStart, count: Int(min(e.size, Int64(2 * window))))
                guard let first = body.first else { return out }
                let trackLength = first.leadingZeroBitCount + 1
                if body.count > trackLength + 3 { out += body[(trackLength + 3)...] }
                at = e.dataStart + e.size
            default:
                guard e.size >= 0 else { return out }        // an unknown size that is not a cluster
                at = e.dataStart + e.size
            }
        }
        return out
    }

    /// An EBML element's id, its data's offset and size (-1: unknown).
    static func element(_ file: MediaFile, at offset: Int64) -> (id: UInt32, dataStart: Int64, size: Int64)? {
        let b = file.bytes(at: offset, count: 12)
        guard let lead = b.first, lead != 0 else { return nil }
        let idLength = lead.leadingZeroBitCount + 1
        guard idLength <= 4, b.count > idLength else { return nil }
        var id: UInt32 = 0
        for byte in b[0..<idLength] { id = id << 8 | UInt32(byte) }
        let sizeLead = b[idLength]
        guard sizeLead != 0 else { return nil }
        let sizeLength = sizeLead.leadingZeroBitCount + 1
        guard b.count >= idLength + sizeLength else { return nil }
        var size = Int64(sizeLead & (0xFF >> sizeLength))
        var allOnes = size == Int64(0xFF >> sizeLength)
        for byte in b[(idLength + 1)..<(idLength + sizeLength)] {
            size = size << 8 | Int64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        return (id, offset + Int64(idLength + sizeLength), allOnes ? -1 : size)
    }

    /// The bodies of the Ogg pages from the first audio page on, up to two windows.
    static func oggAudioPages(_ file: MediaFile) -> [UInt8] {
        var out: [UInt8] = []
        var at: Int64 = 0, audio = false
        for _ in 0..<256 where out.count < 2 * window {
            let h = file.bytes(at: at, count: 27)
            guard h.count == 27, h.starts(with: Array("OggS".utf8)) else { break }
            let segments = file.bytes(at: at + 27, count: Int(h[26]))
            guard segments.count == Int(h[26]) else { break }
            let bodyLength = segments.reduce(0) { $0 + Int($1) }
            let bodyStart = at + 27 + Int64(segments.count)
            // Header pages have position 0, a page on which no packet ends -1: audio starts at the first
            // page with a position, and goes on through pages of -1 (a packet longer than a page).
            audio = audio || !(h[6..<14].allSatisfy { $0 == 0 } || h[6..<14].allSatisfy { $0 == 0xFF })
            if audio { out += file.bytes(at: bodyStart, count: bodyLength) }
            at = bodyStart + Int64(bodyLength)
        }
        return out
    }

    static func be32(_ b: [UInt8], _ i: Int) -> UInt32? {
        guard i + 4 <= b.count else { return nil }
        return UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    static func le32(_ b: [UInt8], _ i: Int) -> UInt32? {
        guard i + 4 <= b.count else { return nil }
        return UInt32(b[i + 3]) << 24 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i])
    }
}
