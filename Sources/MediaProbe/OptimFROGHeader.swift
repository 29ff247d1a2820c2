/// The header of an OptimFROG file (`.ofr` lossless, `.ofs` DualStream), which neither FFmpeg 5.1 nor
/// TagLib 1.13 reads. Both start with an "OFR " chunk (little-endian): its size (12, or 15 and more with
/// the encoder's version), the sample count over all channels (48 bits), the sample type, the channel count
/// less one, the sample rate, then the encoder id and compression mode. Tags are APEv2 at the end (TagLib's
/// APE reader reads them). Layout as mutagen's optimfrog.py reads it.
struct OptimFROGHeader {
    /// Samples over all channels (a stereo second at 44.1 kHz is 88,200).
    var totalSamples: Int64
    var channels: Int
    var sampleRate: Int
    /// From the sample type (unsigned and signed 8, 16, 24 and 32-bit integers); nil for any other type.
    var bitDepth: Int?
    /// "5.100" (the encoder id's high 12 bits + 4500), when the chunk holds it.
    var encoderVersion: String?

    var duration: Double? {
        sampleRate > 0 ? Double(totalSamples) / Double(channels) / Double(sampleRate) : nil
    }

    static func parse(_ b: [UInt8]) -> OptimFROGHeader? {
        guard b.count >= 20, b.starts(with: Array("OFR ".utf8)) else { return nil }
        func le(_ i: Int, _ n: Int) -> Int64 { (0..<n).reversed().reduce(0) { $0 << 8 | Int64(b[i + $1]) } }
        let size = le(4, 4)
        guard size == 12 || size >= 15 else { return nil }
        let type = Int(b[14])
        var header = OptimFROGHeader(totalSamples: le(8, 4) | le(12, 2) << 32, channels: Int(b[15]) + 1,
                                     sampleRate: Int(le(16, 4)), bitDepth: type < 8 ? [8, 8, 16, 16, 24, 24, 32, 32][type] : nil)
        if size >= 15, b.count >= 22 {
            let version = String((le(20, 2) >> 4) + 4500)
            header.encoderVersion = version.prefix(1) + "." + version.dropFirst()
        }
        return header
    }
}
