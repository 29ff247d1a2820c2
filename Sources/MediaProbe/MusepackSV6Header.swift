/// The header of a Musepack stream of version 4, 5 or 6 (before SV7's "MP+" and SV8's "MPCK"), which neither
/// FFmpeg 5.1 nor TagLib 1.13 reads. It has no magic bytes: two little-endian words, the first bit-packed
/// (bit rate for the old CBR mode, 9 bits; intensity stereo; mid/side stereo; stream version, 10 bits; max
/// band, 5 bits; block size, 6 bits, always 1), the second the frame count (SV4: its high 16 bits). SV4
/// and SV5 count one frame too many (libmpcdec drops it). Always 44.1 kHz stereo; 1,152 samples a frame,
/// less the decoder's delay of 576 (as mutagen's musepack.py computes the length). Tags: APEv2 or ID3v1 at
/// the end.
struct MusepackSV6Header {
    var version: Int
    var frames: Int64
    var midSide: Bool
    var intensityStereo: Bool
    /// kb/s, for the CBR mode of early encoders; 0 for the usual variable rate.
    var constantBitRate: Int

    static let sampleRate = 44100
    static let channels = 2
    /// The extensions Musepack files carry: without magic bytes, the header is only taken from these.
    static let extensions: Set<String> = ["mpc", "mp+", "mpp"]

    var duration: Double { Double(max(0, frames * 1152 - 576)) / Double(Self.sampleRate) }

    static func parse(_ b: [UInt8]) -> MusepackSV6Header? {
        guard b.count >= 8 else { return nil }
        func le(_ i: Int) -> Int64 { (0..<4).reversed().reduce(0) { $0 << 8 | Int64(b[i + $1]) } }
        let word = le(0)
        let version = Int(word >> 11 & 0x3FF)
        // The block size is 1 in every stream libmpcdec plays; with the version, the only check there is.
        guard (4...6).contains(version), word & 0x3F == 1 else { return nil }
        var frames = version >= 5 ? le(4) : le(4) >> 16
        if version < 6 { frames -= 1 }
        guard frames > 0 else { return nil }
        return MusepackSV6Header(version: version, frames: frames, midSide: word >> 21 & 1 == 1,
                                 intensityStereo: word >> 22 & 1 == 1, constantBitRate: Int(word >> 23 & 0x1FF))
    }
}
