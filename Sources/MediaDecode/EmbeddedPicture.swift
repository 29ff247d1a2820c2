import CFFmpeg
import MediaModel

/// The cover picture embedded in a media file (FFmpeg's attached-picture stream: ID3 APIC, FLAC
/// PICTURE, MP4 covr, Matroska attachments shown as such), for MPD's `readpicture`.
public struct EmbeddedPicture: Sendable, Hashable {
    public var data: [UInt8]
    public var mimeType: String?

    /// The first attached picture in `path`, or nil when there is none or the file cannot be opened.
    public static func read(_ path: MediaPath) -> EmbeddedPicture? {
        var context: UnsafeMutablePointer<AVFormatContext>?
        guard path.withCString({ avformat_open_input(&context, $0, nil, nil) }) >= 0, let context else { return nil }
        defer { var c: UnsafeMutablePointer<AVFormatContext>? = context; avformat_close_input(&c) }
        for i in 0..<Int(context.pointee.nb_streams) {
            guard let stream = context.pointee.streams[i],
                  stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 else { continue }
            let packet = stream.pointee.attached_pic
            guard let bytes = packet.data, packet.size > 0 else { continue }
            let mime: String? = switch stream.pointee.codecpar.pointee.codec_id {
            case AV_CODEC_ID_MJPEG: "image/jpeg"
            case AV_CODEC_ID_PNG: "image/png"
            case AV_CODEC_ID_BMP: "image/bmp"
            case AV_CODEC_ID_GIF: "image/gif"
            case AV_CODEC_ID_WEBP: "image/webp"
            default: nil
            }
            return EmbeddedPicture(data: Array(UnsafeBufferPointer(start: bytes, count: Int(packet.size))), mimeType: mime)
        }
        return nil
    }
}
