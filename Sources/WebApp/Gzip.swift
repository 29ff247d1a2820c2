import CZlib
import Foundation

/// gzip (RFC 1952) through zlib, for the web app's files: each is compressed once, at its first request.
enum Gzip {
    /// `data` gzipped at zlib's best compression; nil if zlib fails.
    static func compress(_ data: Data) -> Data? {
        var stream = z_stream()
        // Window bits 15 + 16: a gzip header and trailer rather than zlib's.
        guard deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 32)
        let input = [UInt8](data)
        let result = input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        return Data(output.prefix(Int(stream.total_out)))
    }
}
