import CFFmpeg

/// What this FFmpeg cannot decode although it has a decoder for the codec: one rule for MediaProbe (an item's
/// `undecodableReason`) and AudioDecoder (play, analyze, transcoding), so both say the same words.
public enum DecoderLimits {
    /// FFmpeg before 6.1 (libavcodec 60) reads 32-bit FLAC's headers (libFLAC 1.4 writes them) but decodes
    /// none of its frames. nil: this FFmpeg decodes FLAC of `bits` bits.
    public static func flac(bits: Int) -> String? {
        bits > 24 && LIBAVCODEC_VERSION_MAJOR < 60 ? "this FFmpeg cannot decode \(bits)-bit FLAC" : nil
    }
}
