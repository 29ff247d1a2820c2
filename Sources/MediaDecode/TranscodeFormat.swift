/// What `Transcoder` can produce: an encoder of libavcodec and the container libavformat muxes it into.
public enum TranscodeFormat: String, Sendable, CaseIterable {
    /// Opus (libopus) in Ogg: the best quality per bit, what Navidrome sends phones by default.
    case opus
    /// MP3 (LAME): what every player plays.
    case mp3
    /// Uncompressed 16-bit big-endian PCM, no container (DLNA's LPCM, `audio/L16`): for renderers that
    /// play neither the file's format nor MP3 well; 44.1 or 48 kHz, one or two channels.
    case lpcm

    /// libavcodec's encoder.
    var encoderName: String {
        switch self {
        case .opus: "libopus"
        case .mp3: "libmp3lame"
        case .lpcm: "pcm_s16be"
        }
    }

    /// libavformat's muxer.
    var muxerName: String {
        switch self {
        case .opus: "ogg"
        case .mp3: "mp3"
        case .lpcm: "s16be"
        }
    }

    /// The HTTP `Content-Type` of the stream.
    public var contentType: String {
        switch self {
        case .opus: "audio/ogg"
        case .mp3: "audio/mpeg"
        case .lpcm: "audio/L16"   // with `;rate=…;channels=…` (RFC 2586), which only the transcoder knows
        }
    }

    /// The file suffix a client names the result with.
    public var suffix: String {
        switch self {
        case .opus: "opus"
        case .mp3: "mp3"
        case .lpcm: "lpcm"
        }
    }

    /// The bit rate (bits per second) used when the client asks for none.
    public var defaultBitRate: Int {
        switch self {
        case .opus: 128_000
        case .mp3: 192_000
        case .lpcm: 1_411_200   // 44.1 kHz stereo; the real rate follows from the output's rate and channels
        }
    }

    /// The rates the encoder accepts (bits per second); a request outside is clamped into it.
    public var bitRates: ClosedRange<Int> {
        switch self {
        case .opus: 6_000...510_000
        case .mp3: 32_000...320_000
        case .lpcm: 705_600...1_536_000
        }
    }
}
