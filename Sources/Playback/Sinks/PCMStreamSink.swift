import Foundation

/// Raw interleaved PCM at one fixed format (s16le, 44.1 kHz stereo by default) to a file descriptor
/// (standard output by default), to pipe into `aplay -f cd`, `pw-play --format s16 -`, or
/// `ffplay -f s16le -ar 44100 -ac 2 -`: a pipe cannot tell its reader that the format changed.
public final class PCMStreamSink: AudioSink, @unchecked Sendable {
    public let format: AudioFormat
    private let descriptor: Int32

    public init(format: AudioFormat = .cd, descriptor: Int32 = STDOUT_FILENO) {
        self.format = format
        self.descriptor = descriptor
        // A reader that goes away must give EPIPE (a clean error), not kill the process.
        signal(SIGPIPE, SIG_IGN)
    }

    public func write(_ samples: [Int32]) throws {
        try format.depth.encode(samples).withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SinkError("PCM output: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }

    public func close() throws {}
}
