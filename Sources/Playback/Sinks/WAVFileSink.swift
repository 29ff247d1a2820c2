import Foundation

/// Writes a RIFF/WAVE file (integer PCM at 16, 24 or 32 bits). The header goes out first with zero
/// sizes and is patched with the real ones (and the format) at `close`, so the file is correct however
/// long playback ran.
///
/// Opened without a format, the file takes the first item's rate, channels and depth (a lossy source,
/// decoded as floating point, at 16 bits): a 24-bit/96 kHz file renders bit-exact. One file has one
/// format, so later items are converted to it.
public final class WAVFileSink: AudioSink, @unchecked Sendable {
    public private(set) var format: AudioFormat
    public let path: String
    public private(set) var frameCount = 0
    private var file: UnsafeMutablePointer<FILE>?
    /// False until the format is settled: given at `init`, or taken from the first item.
    private var formatIsFixed: Bool

    public init(path: String, format: AudioFormat? = nil) throws {
        self.path = path
        self.format = format ?? .cd
        formatIsFixed = format != nil
        guard let file = fopen(path, "wb") else {
            throw SinkError("\(path): cannot create WAV file: \(String(cString: strerror(errno)))")
        }
        self.file = file
        try put(Self.header(format: self.format, dataBytes: 0))
    }

    deinit { try? close() }

    public func adopt(_ newFormat: AudioFormat) throws {
        guard !formatIsFixed, frameCount == 0 else { return }
        format = newFormat
        if format.depth == .float32 { format.depth = .int16 }
    }

    public func write(_ samples: [Int32]) throws {
        formatIsFixed = true
        try put(format.depth.encode(samples))
        frameCount += samples.count / format.channels
    }

    public func close() throws {
        guard let file else { return }
        self.file = nil
        let dataBytes = UInt32(clamping: frameCount * format.bytesPerFrame)
        var ok = fflush(file) == 0 && fseek(file, 0, SEEK_SET) == 0
        if ok {
            let header = Self.header(format: format, dataBytes: dataBytes)
            ok = header.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) } == header.count
        }
        ok = fclose(file) == 0 && ok
        if !ok { throw SinkError("\(path): cannot finish WAV file: \(String(cString: strerror(errno)))") }
    }

    /// The 44-byte canonical header (integer PCM, or IEEE float when asked for). (Depths above 16 bits would properly use
    /// WAVE_FORMAT_EXTENSIBLE; the plain PCM tag with 24 or 32 bits is what FFmpeg, SoX and
    /// libsndfile read all the same, and it keeps the header one fixed size.)
    static func header(format: AudioFormat, dataBytes: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        bytes += Array("RIFF".utf8); u32(36 &+ dataBytes); bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8); u32(16); u16(format.depth == .float32 ? 3 : 1)  // IEEE float or PCM
        u16(UInt16(format.channels)); u32(UInt32(format.sampleRate))
        u32(UInt32(format.sampleRate * format.bytesPerFrame)); u16(UInt16(format.bytesPerFrame))
        u16(UInt16(format.depth.bits))
        bytes += Array("data".utf8); u32(dataBytes)
        return bytes
    }

    private func put(_ bytes: some ContiguousBytes) throws {
        guard let file else { throw SinkError("\(path): WAV file already closed") }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let expected = bytes.withUnsafeBytes { $0.count }
        if written != expected { throw SinkError("\(path): write failed: \(String(cString: strerror(errno)))") }
    }
}
