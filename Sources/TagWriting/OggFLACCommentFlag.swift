/// TagLib 1.13 saves an Ogg FLAC file's Vorbis comment packet with its metadata block header's
/// "last metadata block" bit cleared (`Ogg::FLAC::File::save` sets the header's first byte to 4, not
/// 0x84), even when the comment was the last block. ffmpeg and mutagen read the file, but a FLAC reader
/// that trusts the bit — TagLib itself — then reads the first audio packet as a metadata block header and
/// gives up: after one edit, mlib could not edit the file again. The bit is put back here (and the page's
/// checksum computed again) when the original file had it.
enum OggFLACCommentFlag {
    /// Sets the bit again in `content` (a whole new file) where TagLib cleared it; `original` reads the
    /// file as it was.
    static func restore(_ content: inout [UInt8], original: (_ offset: Int64, _ count: Int) -> [UInt8]?) {
        // The first page holds only the "\x7fFLAC" mapping header (with STREAMINFO); the comment packet
        // starts the second page.
        guard applies(original: original), let second = secondPage(content), content.count > second + 27 else { return }
        let segments = Int(content[second + 26])
        let body = second + 27 + segments
        guard content.count > body, content[body] == 0x04 else { return }
        let length = 27 + segments + content[(second + 27)..<(second + 27 + segments)].reduce(0) { $0 + Int($1) }
        guard second + length <= content.count else { return }
        content[body] = 0x84
        for i in 22..<26 { content[second + i] = 0 }
        let crc = checksum(content[second..<(second + length)])
        for i in 0..<4 { content[second + 22 + i] = UInt8((crc >> (8 * UInt32(i))) & 0xFF) }
    }

    /// Whether the file `original` reads is Ogg FLAC whose comment block is flagged as the last one (the
    /// files TagLib's save damages).
    static func applies(original: (_ offset: Int64, _ count: Int) -> [UInt8]?) -> Bool {
        guard let head = original(0, 27 + 255), let second = secondPage(head), head.count > 32 + Int(head[26]),
              head[27 + Int(head[26])] == 0x7F, Array(head[(28 + Int(head[26]))..<(32 + Int(head[26]))]) == Array("FLAC".utf8),
              let page = original(Int64(second), 27 + 255), page.count > 27 + Int(page[26]) else { return false }
        return page[27 + Int(page[26])] == 0x84
    }

    /// The offset of the second Ogg page in `bytes` (which start with the first page).
    static func secondPage(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 27, Array(bytes[0..<4]) == Array("OggS".utf8) else { return nil }
        let segments = Int(bytes[26])
        guard bytes.count >= 27 + segments else { return nil }
        return 27 + segments + bytes[27..<(27 + segments)].reduce(0) { $0 + Int($1) }
    }

    /// Ogg's page checksum: CRC-32, polynomial 0x04C11DB7, not reflected, initial value 0.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes { crc = (crc << 8) ^ table[Int(((crc >> 24) ^ UInt32(byte)) & 0xFF)] }
        return crc
    }

    private static let table: [UInt32] = (0..<256).map { i in
        var r = UInt32(i) << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
        return r
    }
}
