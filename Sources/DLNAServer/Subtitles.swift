import Foundation

/// A video's sidecar subtitles: `<stem>.srt` in the video's folder (the name Samsung and LG TVs, and most
/// servers, look for). Offered in the DIDL-Lite as a `res` (text/srt) and as Samsung's `sec:CaptionInfoEx`,
/// and named by the `CaptionInfo.sec` header of the video's stream when the TV asks (`getCaptionInfo.sec: 1`):
/// the three ways TVs find them (gerbera#390, #552). Not yet: language suffixes (`stem.en.srt`), `.vtt`,
/// embedded subtitle streams.
enum Subtitles {
    /// The sidecar `.srt` beside `video`, or nil (one stat: asked only for videos).
    static func sidecar(of video: String) -> String? {
        let url = URL(fileURLWithPath: video)
        let path = url.deletingPathExtension().path + ".srt"
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return path
    }

    static let mimeType = "text/srt"
}
