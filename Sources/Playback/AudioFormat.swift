/// The one format every item is decoded to and every sink receives: interleaved signed 16-bit
/// little-endian PCM at `sampleRate` with `channels` channels.
public struct AudioFormat: Sendable, Hashable {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int = 44_100, channels: Int = 2) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public static let cd = AudioFormat()
    public var bytesPerFrame: Int { channels * 2 }
    public func seconds(frames: Int) -> Double { Double(frames) / Double(sampleRate) }
}

/// An item that could not be opened or decoded: one line, with the path.
public struct DecodeError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}
