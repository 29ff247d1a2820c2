import CFFmpeg
import FFmpegLoader
import MediaModel

/// A still from a video, for a TV's list of videos (DLNA's JPEG_TN: a JPEG no larger than 160 × 160): the
/// first frame decoded at a tenth of the duration (at most 30 s in, past the opening titles and black of
/// most files, never past the end of a short one), scaled to fit `longestSide` with its aspect kept (never
/// up), encoded as JPEG the way `ImageScaler` encodes covers. A cover picture attached to the file (an MKV
/// cover, an MP4 `covr`) is not a frame and is skipped. One decoder thread: the caller caches.
public enum VideoThumbnail {
    /// How many packets are read looking for the frame before giving up (a file with a video stream that
    /// never yields a frame costs a bounded read, not the whole file).
    static let packetLimit = 4_000

    public static func jpeg(_ file: MediaPath, longestSide: Int = 160) throws -> ImageScaler.Image {
        let path = file.string
        try FFmpegLibrary.load(for: path)
        var context: UnsafeMutablePointer<AVFormatContext>?
        var status = file.withCString { avformat_open_input(&context, $0, nil, nil) }
        guard status >= 0, let format = context else { throw DecodeError(path: path, message: FFmpegLibrary.text(status)) }
        defer { avformat_close_input(&context) }
        status = avformat_find_stream_info(format, nil)
        guard status >= 0 else { throw DecodeError(path: path, message: FFmpegLibrary.text(status)) }
        var index: Int32 = -1
        var codec: UnsafePointer<AVCodec>?
        for i in 0..<Int32(format.pointee.nb_streams) {
            guard let stream = format.pointee.streams[Int(i)], stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
                  stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0,
                  let decoder = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) else { continue }
            index = i
            codec = decoder
            break
        }
        guard index >= 0, let codec, let stream = format.pointee.streams[Int(index)] else {
            throw DecodeError(path: path, message: "no decodable video stream")
        }
        var decoderContext = avcodec_alloc_context3(codec)
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer {
            avcodec_free_context(&decoderContext)
            av_packet_free(&packet)
            av_frame_free(&frame)
        }
        guard let decoderContext, let packet, let frame else { throw DecodeError(path: path, message: "out of memory") }
        status = avcodec_parameters_to_context(decoderContext, stream.pointee.codecpar)
        decoderContext.pointee.thread_count = 1
        if status >= 0 { status = avcodec_open2(decoderContext, codec, nil) }
        guard status >= 0 else { throw DecodeError(path: path, message: "cannot open decoder: \(FFmpegLibrary.text(status))") }

        // Seek (to the key frame before) a tenth of the way in; a file that cannot seek starts at the start.
        if format.pointee.duration > 0 {
            let target = min(format.pointee.duration / 10, Int64(30) * Int64(AV_TIME_BASE))
            if avformat_seek_file(format, -1, Int64.min, target, target, 0) < 0 {
                _ = avformat_seek_file(format, -1, Int64.min, 0, 0, 0)
            }
        }
        var got = false, packets = 0, draining = false
        while !got && packets < packetLimit {
            if !draining {
                status = av_read_frame(format, packet)
                if status < 0 {
                    draining = true
                    _ = avcodec_send_packet(decoderContext, nil)
                } else {
                    defer { av_packet_unref(packet) }
                    packets += 1
                    guard packet.pointee.stream_index == index else { continue }
                    _ = avcodec_send_packet(decoderContext, packet)
                }
            }
            status = avcodec_receive_frame(decoderContext, frame)
            if status >= 0 { got = true } else if draining { break }
        }
        guard got, frame.pointee.width > 0, frame.pointee.height > 0 else {
            throw DecodeError(path: path, message: "no video frame decoded")
        }

        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let scale = min(1, Double(longestSide) / Double(max(width, height)))
        let targetWidth = max(1, Int((Double(width) * scale).rounded())), targetHeight = max(1, Int((Double(height) * scale).rounded()))
        guard let scaler = sws_getContext(Int32(width), Int32(height), AVPixelFormat(frame.pointee.format), Int32(targetWidth), Int32(targetHeight),
                                          AV_PIX_FMT_YUVJ420P, SWS_BICUBIC, nil, nil, nil) else {
            throw DecodeError(path: path, message: "cannot scale a \(width)×\(height) frame")
        }
        defer { sws_freeContext(scaler) }
        var target = av_frame_alloc()
        defer { av_frame_free(&target) }
        guard let target else { throw DecodeError(path: path, message: "out of memory") }
        target.pointee.width = Int32(targetWidth)
        target.pointee.height = Int32(targetHeight)
        target.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        status = av_frame_get_buffer(target, 0)
        if status >= 0 { status = sws_scale_frame(scaler, target, frame) }
        guard status >= 0 else { throw DecodeError(path: path, message: "scaling failed: \(FFmpegLibrary.text(status))") }
        let bytes = try ImageScaler.encode(target, as: "mjpeg")
        return ImageScaler.Image(bytes: bytes, mimeType: "image/jpeg", width: targetWidth, height: targetHeight)
    }
}
