import CFFmpeg
import FFmpegLoader

/// FFmpeg's process-wide state, handled once for every module that calls it (the decoder, the prober):
/// loading the libraries, their log level, and the text of their error codes.
public enum FFmpegLibrary {
    /// Loads FFmpeg (on first use, see FFmpegLoader) and silences its log; nil when it is usable, else
    /// why not (one line), for the caller to turn into an error of its own.
    public static func loadError() -> String? {
        if let failure = mlib_ffmpeg_load_error() { return String(cString: failure) }
        _ = silenceLogging
        return nil
    }

    static func load(for path: String) throws {
        if let failure = loadError() { throw DecodeError(path: path, message: failure) }
    }

    /// FFmpeg logs decoder warnings to stderr, which would tear through the CLI's status line; errors
    /// that matter reach the caller as typed errors instead.
    private static let silenceLogging: Void = av_log_set_level(AV_LOG_QUIET)

    /// FFmpeg's text for an error status (`av_err2str` is a macro Swift cannot import).
    public static func text(_ status: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(status, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
