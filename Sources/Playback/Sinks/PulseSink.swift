import CPulse
import PulseLoader

/// A real audio device through PulseAudio's simple API (served by PulseAudio or PipeWire's
/// pipewire-pulse). Opening fails with a `SinkError` when no server is reachable; it never waits for one.
public final class PulseSink: AudioSink, @unchecked Sendable {
    public private(set) var format: AudioFormat
    private var stream: OpaquePointer?
    private let applicationName: String

    /// About this much audio is buffered in the server: small enough that pause and skip feel immediate.
    static let bufferSeconds = 0.15

    public init(format: AudioFormat = .cd, applicationName: String = "mlib") throws {
        self.format = format
        self.applicationName = applicationName
        stream = try Self.open(format, applicationName)
    }

    private static func open(_ format: AudioFormat, _ applicationName: String) throws -> OpaquePointer {
        if let reason = mlib_pulse_load_error() { throw SinkError(String(cString: reason)) }
        let sampleFormat = switch format.depth {
        case .int16: PA_SAMPLE_S16LE
        case .int24: PA_SAMPLE_S24LE
        case .int32: PA_SAMPLE_S32LE
        case .float32: PA_SAMPLE_FLOAT32LE
        }
        var spec = pa_sample_spec(format: sampleFormat, rate: UInt32(format.sampleRate), channels: UInt8(format.channels))
        let target = UInt32(Double(format.sampleRate * format.bytesPerFrame) * Self.bufferSeconds)
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: target, prebuf: UInt32.max,
                                        minreq: UInt32.max, fragsize: UInt32.max)
        var error: Int32 = 0
        guard let stream = pa_simple_new(nil, applicationName, PA_STREAM_PLAYBACK, nil, "playback", &spec, nil,
                                         &attributes, &error) else {
            throw SinkError("PulseAudio/PipeWire server not reachable (\(String(cString: pa_strerror(error))))")
        }
        return stream
    }

    /// A new stream at the item's rate, channels and depth (the server takes S16, S24, S32 and float),
    /// after the old one has played out (the one gap mlib leaves: between items of different formats,
    /// as MPD does).
    public func adopt(_ newFormat: AudioFormat) throws {
        guard newFormat != format else { return }
        drain()
        try close()
        stream = try Self.open(newFormat, applicationName)
        format = newFormat
    }

    deinit { try? close() }

    public func write(_ samples: [Int32]) throws {
        guard let stream else { throw SinkError("audio device already closed") }
        var error: Int32 = 0
        let status = format.depth.encode(samples).withUnsafeBytes { pa_simple_write(stream, $0.baseAddress, $0.count, &error) }
        if status < 0 { throw SinkError("audio device: \(String(cString: pa_strerror(error)))") }
    }

    public func discardBuffered() {
        guard let stream else { return }
        var error: Int32 = 0
        _ = pa_simple_flush(stream, &error)
    }

    public func drain() {
        guard let stream else { return }
        var error: Int32 = 0
        _ = pa_simple_drain(stream, &error)
    }

    public func close() throws {
        guard let stream else { return }
        self.stream = nil
        pa_simple_free(stream)
    }
}
