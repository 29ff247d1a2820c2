import Foundation

/// A video's sidecar subtitles: `<stem>.srt` in the video's folder (the name Samsung and LG TVs, and most
/// servers, look for). Offered in the DIDL-Lite as a `res` (text/srt) and as Samsung's `sec:CaptionInfoEx`,
/// and named by the `CaptionInfo.sec` header of the video's stream when the TV asks (`getCaptionInfo.sec: 1`):
/// the three ways TVs find them (gerbera#390, #552). Not yet: language suffixes (`stem.en.srt`), `.vtt`,
/// embedded subtitle streams.
enum Subtitles {
    /// The sidecar `.srt` beside `video`, or nil (one lstat: asked only for videos). A symlink is not one:
    /// `/subtitle/` opens by `FileContainment`, which follows none, so a sidecar linked in (or swapped for a
    /// link after the scan) would be offered and then refused.
    static func sidecar(of video: String) -> String? {
        let url = URL(fileURLWithPath: video)
        let path = url.deletingPathExtension().path + ".srt"
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return path
    }

    static let mimeType = "text/srt"
}
