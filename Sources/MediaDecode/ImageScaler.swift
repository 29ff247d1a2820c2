import CFFmpeg
import FFmpegLoader

/// Scales a cover picture (JPEG or PNG, from a cover.jpg or a file's embedded picture) so its longest side
/// is a given number of pixels, aspect kept, in-process: libavcodec decodes it, libswscale scales it
/// (bicubic), libavcodec encodes it again, as JPEG, or as PNG when the source is a PNG (its transparency
/// kept). A picture already that small is returned as it is: phones ask for a size and upscaling only
/// costs bytes.
public enum ImageScaler {
    public struct Image: Sendable {
        public var bytes: [UInt8]
        public var mimeType: String
        public var width: Int
        public var height: Int
    }

    /// The picture scaled to `longestSide`, or nil when it is no larger already. Throws `DecodeError` when
    /// the bytes are not a JPEG or PNG FFmpeg decodes.
    public static func scaled(_ bytes: [UInt8], longestSide: Int) throws -> Image? {
        try FFmpegLibrary.load(for: "")
        let isPNG = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
        let source = try decode(bytes, codec: isPNG ? AV_CODEC_ID_PNG : AV_CODEC_ID_MJPEG)
        var sourceFrame: UnsafeMutablePointer<AVFrame>? = source
        defer { av_frame_free(&sourceFrame) }
        let width = Int(source.pointee.width), height = Int(source.pointee.height)
        guard longestSide > 0, max(width, height) > longestSide else { return nil }
        let scale = Double(longestSide) / Double(max(width, height))
        let targetWidth = width >= height ? longestSide : max(1, Int((Double(width) * scale).rounded()))
        let targetHeight = height > width ? longestSide : max(1, Int((Double(height) * scale).rounded()))

        let sourceFormat = AVPixelFormat(source.pointee.format)
        let hasAlpha = av_pix_fmt_desc_get(sourceFormat).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0 } ?? false
        let targetFormat = isPNG ? (hasAlpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24) : AV_PIX_FMT_YUVJ420P
        guard let scaler = sws_getContext(Int32(width), Int32(height), sourceFormat, Int32(targetWidth), Int32(targetHeight),
                                          targetFormat, SWS_BICUBIC, nil, nil, nil) else {
            throw DecodeError(path: "", message: "cannot scale a \(width)×\(height) picture")
        }
        defer { sws_freeContext(scaler) }
        var target = av_frame_alloc()
        defer { av_frame_free(&target) }
        guard let target else { throw DecodeError(path: "", message: "out of memory") }
        target.pointee.width = Int32(targetWidth)
        target.pointee.height = Int32(targetHeight)
        target.pointee.format = targetFormat.rawValue
        var status = av_frame_get_buffer(target, 0)
        if status >= 0 { status = sws_scale_frame(scaler, target, source) }
        guard status >= 0 else { throw DecodeError(path: "", message: "scaling failed: \(FFmpegLibrary.text(status))") }
        let encoded = try encode(target, as: isPNG ? "png" : "mjpeg")
        return Image(bytes: encoded, mimeType: isPNG ? "image/png" : "image/jpeg", width: targetWidth, height: targetHeight)
    }

    /// A JPEG or PNG decoded whole: each is one packet to its decoder, so no demuxer is needed.
    private static func decode(_ bytes: [UInt8], codec id: AVCodecID) throws -> UnsafeMutablePointer<AVFrame> {
        guard let codec = avcodec_find_decoder(id) else { throw DecodeError(path: "", message: "this FFmpeg has no image decoder") }
        var context = avcodec_alloc_context3(codec)
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer {
            avcodec_free_context(&context)
            av_packet_free(&packet)
        }
        guard let context, let packet, let decoded = frame, !bytes.isEmpty else {
            av_frame_free(&frame)
            throw DecodeError(path: "", message: "out of memory")
        }
        // av_new_packet zeroes the padding after the data that FFmpeg's bit readers may read past the end.
        var status = avcodec_open2(context, codec, nil)
        if status >= 0 { status = av_new_packet(packet, Int32(bytes.count)) }
        if status >= 0 {
            bytes.withUnsafeBytes { packet.pointee.data.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: bytes.count) }
            status = avcodec_send_packet(context, packet)
        }
        if status >= 0 { status = avcodec_send_packet(context, nil) }
        if status >= 0 { status = avcodec_receive_frame(context, decoded) }
        guard status >= 0, decoded.pointee.width > 0, decoded.pointee.height > 0 else {
            av_frame_free(&frame)
            throw DecodeError(path: "", message: "not a picture FFmpeg decodes: \(FFmpegLibrary.text(status))")
        }
        return decoded
    }

    /// One frame as a JPEG (`mjpeg`, fixed quantiser) or PNG; `VideoThumbnail` encodes its frames here too.
    static func encode(_ frame: UnsafeMutablePointer<AVFrame>, as encoderName: String) throws -> [UInt8] {
        guard let codec = avcodec_find_encoder_by_name(encoderName) else {
            throw DecodeError(path: "", message: "this FFmpeg has no \(encoderName) encoder")
        }
        var context = avcodec_alloc_context3(codec)
        var packet = av_packet_alloc()
        defer {
            avcodec_free_context(&context)
            av_packet_free(&packet)
        }
        guard let context, let packet else { throw DecodeError(path: "", message: "out of memory") }
        context.pointee.width = frame.pointee.width
        context.pointee.height = frame.pointee.height
        context.pointee.pix_fmt = AVPixelFormat(frame.pointee.format)
        context.pointee.time_base = AVRational(num: 1, den: 25)
        if encoderName == "mjpeg" {
            // A fixed quantiser (2–31, lower is better): 3 looks like the source at cover sizes.
            context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            context.pointee.global_quality = 3 * mlib_qp2lambda()
            frame.pointee.quality = context.pointee.global_quality
        }
        var status = avcodec_open2(context, codec, nil)
        if status >= 0 { status = avcodec_send_frame(context, frame) }
        if status >= 0 { status = avcodec_receive_packet(context, packet) }
        guard status >= 0 else { throw DecodeError(path: "", message: "cannot encode the picture: \(FFmpegLibrary.text(status))") }
        defer { av_packet_unref(packet) }
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }
}
