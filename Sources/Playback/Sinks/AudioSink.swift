/// Where decoded audio goes: interleaved frames at the sink's `format` (rate, channels), given as 32-bit
/// integers with full scale at `Int32`'s range, which the sink stores at its `format.depth`.
///
/// A sink is written by the player's engine thread only, one call at a time; that is why the
/// implementations can be `@unchecked Sendable` without locks of their own.
public protocol AudioSink: AnyObject, Sendable {
    var format: AudioFormat { get }
    /// Writes samples; may block (a device or a paced null sink plays in real time).
    func write(_ samples: [Int32]) throws
    /// Drops audio written but not yet heard (after a user's skip or seek), where that means anything.
    func discardBuffered()
    /// Waits until everything written has been heard.
    func drain()
    /// Finishes the output (a WAV file gets its final sizes). Idempotent.
    func close() throws
    /// Switches to `format` (an item's own rate, channels and depth, so it is not resampled or
    /// requantised), or to the nearest the output can take, after what was written has played. An
    /// output with one fixed format (a PCM pipe, a WAV file once written to) keeps it; the player
    /// converts every item to whatever `format` then says.
    func adopt(_ format: AudioFormat) throws
}

extension AudioSink {
    public func discardBuffered() {}
    public func drain() {}
    public func adopt(_ format: AudioFormat) throws {}
}

/// An output that failed: one line for the user.
public struct SinkError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// `--sink` values: `auto`, `null`, `null:fast`, `wav:FILE`, `pcm`, `pulse`.
public enum SinkSpec: Sendable, Hashable, CustomStringConvertible {
    /// A real device (PulseAudio/PipeWire) if a server is reachable, else an error.
    case auto
    /// Discards audio, paced to real time (`realTime`) or as fast as decoding goes.
    case null(realTime: Bool)
    case wav(path: String)
    /// Raw s16le to standard output, for `aplay -f cd`, `pw-play`, `ffplay -f s16le`.
    case pcm
    case pulse

    public init?(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "null": self = .null(realTime: true)
        case "null:fast": self = .null(realTime: false)
        case "pcm", "-": self = .pcm
        case "pulse", "pipewire": self = .pulse
        default:
            guard text.hasPrefix("wav:"), text.count > 4 else { return nil }
            self = .wav(path: String(text.dropFirst(4)))
        }
    }

    public var description: String {
        switch self {
        case .auto: "auto"
        case .null(let realTime): realTime ? "null" : "null:fast"
        case .wav(let path): "wav:\(path)"
        case .pcm: "pcm"
        case .pulse: "pulse"
        }
    }

    /// True for a device that plays in real time, where someone may be listening: only then are plays
    /// and skips recorded by default (a null, WAV or PCM rendering would inflate play counts).
    public var isListenedTo: Bool { self == .pulse || self == .auto }

    /// True when the sink writes to standard output (so the CLI must print its own lines to stderr).
    public var usesStandardOutput: Bool { self == .pcm }

    /// Opens the sink at `format`, or, without one, at 44.1 kHz/16-bit stereo until the first item
    /// switches it (a WAV file then keeps the first item's format; a PCM pipe keeps 44.1 kHz/16-bit,
    /// which is what `aplay -f cd` expects). `auto` and `pulse` fail with a clear `SinkError` when no
    /// server is reachable.
    public func open(format: AudioFormat? = nil, applicationName: String = "mlib") throws -> any AudioSink {
        switch self {
        case .null(let realTime): return NullSink(format: format ?? .cd, realTime: realTime)
        case .wav(let path): return try WAVFileSink(path: path, format: format)
        case .pcm: return PCMStreamSink(format: format ?? .cd)
        case .pulse, .auto:
            do { return try PulseSink(format: format ?? .cd, applicationName: applicationName) } catch let error as SinkError {
                guard self == .auto else { throw error }
                throw SinkError("no audio device: \(error.message); use --sink wav:FILE, --sink pcm or --sink null")
            }
        }
    }
}
