import Foundation
import MediaModel

/// Reads any supported playlist format into entries, in order.
public enum PlaylistReader {
    /// The largest playlist file read (64 MB: 400,000 M3U entries, or a JSON export of about 100,000 items
    /// with every property). Anything bigger is not a playlist; reading it would take minutes and gigabytes.
    public static let sizeLimit = 64 << 20
    /// The longest line of a line-based playlist (M3U, PLS): 64 KiB, far beyond any path (PATH_MAX is 4 KiB,
    /// 12 KiB once %-escaped in a URI).
    public static let lineLimit = 64 << 10

    /// Parses `bytes`. `base` is the folder relative entries are resolved against (normally the playlist
    /// file's own folder); `path` only names the file in error messages.
    public static func read(_ bytes: [UInt8], format: PlaylistFormat, base: MediaPath,
                            path: String? = nil) throws -> PlaylistDocument {
        let base = base.normalized
        switch format {
        case .m3u, .m3u8: return try M3U.read(bytes, base: base, path: path)
        case .pls: return try PLS.read(bytes, base: base, path: path)
        case .xspf: return try XSPF.read(bytes, base: base, path: path)
        case .jspf: return try JSPF.read(bytes, base: base, path: path)
        case .json: return try JSONPlaylist.read(bytes, base: base, path: path)
        }
    }

    /// Reads the playlist file at `path` (absolute), detecting its format from the extension or content.
    /// Relative entries are resolved against `base`, by default the file's folder (MPD's saved playlists
    /// are relative to its music directory).
    public static func read(contentsOf path: MediaPath, format: PlaylistFormat? = nil, base: MediaPath? = nil) throws -> PlaylistDocument {
        let bytes = try FileBytes.read(path, limit: sizeLimit)
        return try read(bytes, format: format ?? .detect(path: path, bytes: bytes), base: base ?? path.directory,
                        path: path.string)
    }
}
