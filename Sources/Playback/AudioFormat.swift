import MediaDecode

/// How a sink stores each sample. The player's pipeline itself always carries 32-bit integers
/// (full scale is `Int32`'s range: a 16- or 24-bit source's samples are shifted up, exactly, so
/// the sink gets every bit back); the sink writes them at its depth.
public enum SampleDepth: Sendable, Hashable, CustomStringConvertible {
    case int16, int24, int32, float32

    public var bytesPerSample: Int {
        switch self {
        case .int16: 2
        case .int24: 3
        case .int32, .float32: 4
        }
    }

    /// Bits per sample, as a WAV header or MPD's `audio` field says it (32 for float).
    public var bits: Int { bytesPerSample * 8 }

    public var description: String {
        switch self {
        case .int16: "16-bit"
        case .int24: "24-bit"
        case .int32: "32-bit"
        case .float32: "float"
        }
    }

    /// The samples at this depth, little-endian, interleaved as given. Integer depths below 32 bits
    /// round to nearest and saturate: a source of this depth comes back bit-exact, a deeper one (or a
    /// gain that raised it) loses only the bits the depth cannot hold.
    public func encode(_ samples: [Int32]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: samples.count * bytesPerSample)
        bytes.withUnsafeMutableBufferPointer { out in
            switch self {
            case .int16:
                for (i, s) in samples.enumerated() {
                    let v = UInt16(bitPattern: Int16(Self.rounded(s, shift: 16, max: Int64(Int16.max))))
                    out[2 * i] = UInt8(truncatingIfNeeded: v)
                    out[2 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
                }
            case .int24:
                for (i, s) in samples.enumerated() {
                    let v = UInt32(bitPattern: Int32(Self.rounded(s, shift: 8, max: (1 << 23) - 1)))
                    out[3 * i] = UInt8(truncatingIfNeeded: v)
                    out[3 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    out[3 * i + 2] = UInt8(truncatingIfNeeded: v >> 16)
                }
            case .int32, .float32:
                for (i, s) in samples.enumerated() {
                    let v = self == .int32 ? UInt32(bitPattern: s) : (Float(s) / 2_147_483_648).bitPattern
                    for b in 0..<4 { out[4 * i + b] = UInt8(truncatingIfNeeded: v >> (8 * b)) }
                }
            }
        }
        return bytes
    }

    private static func rounded(_ sample: Int32, shift: Int, max: Int64) -> Int64 {
        Swift.min(max, (Int64(sample) + (1 << (shift - 1))) >> shift)
    }
}

/// What a sink receives: interleaved PCM at `sampleRate` with `channels` channels, written at `depth`.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    public var depth: SampleDepth

    public init(sampleRate: Int = 44_100, channels: Int = 2, depth: SampleDepth = .int16) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.depth = depth
    }

    /// 44.1 kHz, 16-bit stereo.
    public static let cd = AudioFormat()
    public var bytesPerFrame: Int { channels * depth.bytesPerSample }
    public func seconds(frames: Int) -> Double { Double(frames) / Double(sampleRate) }

    /// Same rate and channels: the decoder's output needs no change, whatever the depth.
    func hasSameLayout(as other: AudioFormat) -> Bool {
        sampleRate == other.sampleRate && channels == other.channels
    }

    /// As MPD writes an audio format: "96000:24:2" ("f" for float).
    public var description: String {
        "\(sampleRate):\(depth == .float32 ? "f" : String(depth.bits)):\(channels)"
    }
}

/// The decoder's error, under the name Playback's users have known it by.
public typealias DecodeError = MediaDecode.DecodeError
