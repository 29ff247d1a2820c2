import Foundation
import MediaModel

/// Reads any supported playlist format into entries, in order.
public enum PlaylistReader {
    /// Parses `bytes`. `base` is the folder relative entries are resolved against (normally the playlist
    /// file's own folder); `path` only names the file in error messages.
    public static func read(_ bytes: [UInt8], format: PlaylistFormat, base: MediaPath,
                            path: String? = nil) throws -> PlaylistDocument {
        let base = base.normalized
        switch format {
        case .m3u, .m3u8: return M3U.read(bytes, base: base)
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
        let bytes = try FileBytes.read(path)
        return try read(bytes, format: format ?? .detect(path: path, bytes: bytes), base: base ?? path.directory,
                        path: path.string)
    }
}
