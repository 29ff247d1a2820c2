import MediaDecode
import MediaModel

/// The player's view of the shared decoder: `Int32` samples at a sink's rate and channels, and the
/// source's own format for a sink that can switch to it.
extension AudioDecoder where Sample == Int32 {
    convenience init(path: MediaPath, output: AudioFormat) throws {
        try self.init(path: path, sampleRate: output.sampleRate, channels: output.channels)
    }

    /// The rate and channels `read` delivers (the depth is the pipeline's, always 32-bit integers).
    var output: AudioFormat { AudioFormat(sampleRate: sampleRate, channels: channels, depth: .int32) }

    /// The item's own rate, channels (more than two are taken as stereo: the player downmixes them) and
    /// depth, which a sink that can is switched to, so the item is not resampled or requantised.
    var sourceFormat: AudioFormat {
        let depth: SampleDepth = switch sourceDepth {
        case .int16: .int16
        case .int24: .int24
        case .int32: .int32
        case .float: .float32
        }
        return AudioFormat(sampleRate: sourceSampleRate, channels: sourceChannels == 1 ? 1 : 2, depth: depth)
    }
}
