/// Text whose encoding a format leaves to the writer: RIFF INFO (Windows taggers write the ANSI code page,
/// cp1252 in the West) and Vorbis comments that should be UTF-8 and sometimes are Latin-1. TagLib 1.13 and
/// FFmpeg decode such bytes as UTF-8 and return nothing or U+FFFD; mediainfo, exiftool (and for Vorbis
/// comments, mlib since issue 49) read them as Windows-1252, a superset of Latin-1's printable range.
enum WindowsText {
    /// `bytes` as UTF-8 when they are valid UTF-8, else as Windows-1252.
    static func decode<C: Collection<UInt8>>(_ bytes: C) -> String {
        String(validating: bytes, as: UTF8.self) ?? windows1252(bytes)
    }

    static func isUTF8<C: Collection<UInt8>>(_ bytes: C) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    static func windows1252<C: Collection<UInt8>>(_ bytes: C) -> String {
        var s = String.UnicodeScalarView()
        for b in bytes {
            let value = b >= 0x80 && b < 0xA0 ? high[Int(b - 0x80)] : UInt32(b)
            s.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(s)
    }

    /// 0x80…0x9F; the five bytes cp1252 leaves undefined keep their C1 code (as Windows' own decoder does).
    private static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
