import Foundation

/// Writes a RIFF/WAVE file (PCM s16le). The header goes out first with zero sizes and is patched with
/// the real ones at `close`, so the file is correct however long playback ran.
public final class WAVFileSink: AudioSink, @unchecked Sendable {
    public let format: AudioFormat
    public let path: String
    public private(set) var frameCount = 0
    private var file: UnsafeMutablePointer<FILE>?

    public init(path: String, format: AudioFormat = .cd) throws {
        self.path = path
        self.format = format
        guard let file = fopen(path, "wb") else {
            throw SinkError("\(path): cannot create WAV file: \(String(cString: strerror(errno)))")
        }
        self.file = file
        try put(Self.header(format: format, dataBytes: 0))
    }

    deinit { try? close() }

    public func write(_ samples: [Int16]) throws {
        // WAV is little-endian, as is every platform this runs on; convert anyway so it stays correct.
        try samples.map(\.littleEndian).withUnsafeBytes { try put($0) }
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

    /// The 44-byte canonical header for PCM s16le.
    static func header(format: AudioFormat, dataBytes: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        bytes += Array("RIFF".utf8); u32(36 &+ dataBytes); bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8); u32(16); u16(1)  // PCM
        u16(UInt16(format.channels)); u32(UInt32(format.sampleRate))
        u32(UInt32(format.sampleRate * format.bytesPerFrame)); u16(UInt16(format.bytesPerFrame)); u16(16)
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
