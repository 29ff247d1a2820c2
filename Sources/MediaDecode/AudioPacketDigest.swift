import CFFmpeg
import FFmpegLoader
import MediaModel

/// What a decoder is given of a file: every packet FFmpeg's demuxer reads from its streams (attached
/// pictures left out), counted and hashed, without decoding. Two files with the same digest hand a decoder
/// the same bytes in the same packets, so they decode to the same audio: the check a tag write makes
/// (`TagWriting`'s `WriteCheck`) that it moved no audio, at the cost of reading the file (a decode would
/// cost 10–100× more). It sees what the container's own sizes and indexes say: an AIFF whose FORM now ends
/// before its sound data, an MP4 whose chunk offsets no longer point at the samples, an MP3 whose first
/// frame is no longer found after junk — each a different digest.
public struct AudioPacketDigest: Sendable, Hashable, CustomStringConvertible {
    public var packets: Int
    public var bytes: Int
    public var hash: UInt64
    /// The hash before the last packet: an APE file's last frame runs on to the end of the file as FFmpeg
    /// reads it, through the APEv2 tag there, so a tag edit changes that packet's length and bytes alone.
    public var hashBeforeLast: UInt64 = 0

    public var description: String { "\(packets) packets, \(bytes) bytes" }

    /// The digest of `file`'s packets, or nil when FFmpeg cannot open it.
    public static func of(_ file: MediaPath) -> AudioPacketDigest? {
        guard FFmpegLibrary.loadError() == nil else { return nil }
        var context: UnsafeMutablePointer<AVFormatContext>?
        guard file.withCString({ avformat_open_input(&context, $0, nil, nil) }) >= 0, let context else { return nil }
        defer { var c: UnsafeMutablePointer<AVFormatContext>? = context; avformat_close_input(&c) }
        guard let packet = av_packet_alloc() else { return nil }
        defer { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
        var digest = AudioPacketDigest(packets: 0, bytes: 0, hash: 0xcbf2_9ce4_8422_2325)
        // A damaged file may make the demuxer loop on errors: a bound far above any real file's count.
        var failures = 0
        while failures < 1000 {
            let status = av_read_frame(context, packet)
            if status == mlib_averror_eof() { break }
            if status < 0 { failures += 1; if status == mlib_averror_eagain() { continue } else { break } }
            defer { av_packet_unref(packet) }
            let index = Int(packet.pointee.stream_index)
            guard index < Int(context.pointee.nb_streams), let stream = context.pointee.streams[index],
                  stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 else { continue }
            digest.add(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)), stream: index)
        }
        return digest
    }

    /// Mixes one packet in: its stream, its length, its bytes 8 at a time (a 64-bit multiply-xorshift
    /// over words: not cryptographic, only a witness that the bytes stayed).
    mutating func add(_ data: UnsafeBufferPointer<UInt8>, stream: Int) {
        packets += 1
        bytes += data.count
        hashBeforeLast = hash
        var h = hash
        func mix(_ word: UInt64) {
            h = (h ^ word) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
        }
        mix(UInt64(stream) << 32 | UInt64(data.count))
        guard let base = data.baseAddress else { hash = h; return }
        let words = data.count / 8
        let raw = UnsafeRawPointer(base)
        for i in 0..<words { mix(raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) }
        var tail: UInt64 = 0
        for i in (words * 8)..<data.count { tail = tail << 8 | UInt64(base[i]) }
        mix(tail)
        hash = h
    }
}
