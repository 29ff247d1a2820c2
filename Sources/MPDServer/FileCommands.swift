import Foundation
import MediaModel
import MediaProbe

/// `listfiles`: the music directory's files as they are on disk (indexed or not), as mpd's local storage
/// lists them.
enum FileCommands {
    /// `readcomments URI`: the song's raw tags, read from the file now (off the loop), one `KEY: value` line
    /// per value. mpd prints what its decoder plugin reports (for FLAC and Ogg the Vorbis comments in file
    /// order, for MP4 FFmpeg's names); mlib prints TagLib's property names (the keys `mlib info --tags`
    /// shows), sorted by key: the same tags, in mlib's spelling and order (mlib(1), "mpd").
    /// Lyrics (issue 41) are one `LYRICS:` line per line of text (a value cannot hold a line break; mpd's
    /// would break the protocol); a song whose file has no lyrics tag but lyrics the scan stored (a sidecar
    /// .lrc) carries those, the preferred set as `mlib lyrics` chooses it (synced as LRC, times kept).
    static func readcomments(_ c: CommandContext, _ out: inout Response) throws {
        let browser = c.core.browser()
        guard let song = browser.song(c.arguments[0]) else { throw MPDError.noSuchSong }
        let path = browser.view.paths[Int(song)], id = browser.view.ids[Int(song)]
        let library = c.core.library
        c.offLoop {
            var read: [String: String]
            do { read = try MediaProbe.probe(path, detail: .library).item.tags } catch {
                throw MPDError(.noExist, "Failed to load file")
            }
            if !read.keys.contains(where: LyricsReader.isLyricsKey),
               let stored = LyricsReader.preferred((try? library.lyrics(ofItem: id)) ?? []) {
                read["LYRICS"] = stored.isSynced ? stored.lrc : stored.text
            }
            let tags = read
            return { _, out in
                for key in tags.keys.sorted(by: LibraryBrowser.byteOrder) {
                    if LyricsReader.isLyricsKey(key) {
                        for line in tags[key]!.split(whereSeparator: \.isNewline) where !line.isEmpty { out.field(key, String(line)) }
                        continue
                    }
                    // The index joins a tag's several values with "; ": one line each, as mpd prints them.
                    for value in MediaProperty.splitValues(tags[key]!) where !value.isEmpty { out.field(key, value) }
                }
            }
        }
    }

    /// `listfiles [URI]`: each entry of the directory in the order the file system gives (mpd does not
    /// sort): `file:` with `size:` for a regular file, `directory:` for a directory, each with its
    /// `Last-Modified`; `.`, `..`, names with a line break, symbolic links and other kinds are left out
    /// (mpd looks with lstat). Read off the loop: it is disk work.
    static func listfiles(_ c: CommandContext, _ out: inout Response) throws {
        let uri = c.arguments.first ?? ""
        if LibraryURIs.normalized(uri).isEmpty, let tops = c.core.uris.topDirectories {
            // Several roots: the top is mlib's own (a directory per root).
            for name in tops { out.field("directory", name) }
            return
        }
        guard let directory = c.core.uris.path(of: uri) else { throw MPDError.badURI }
        c.offLoop {
            let entries = try Self.entries(of: directory)
            return { _, out in
                for entry in entries {
                    if let size = entry.size {
                        out.field("file", entry.name)
                        out.field("size", size)
                    } else {
                        out.field("directory", entry.name)
                    }
                    out.timestamp("Last-Modified", seconds: entry.modified)
                }
            }
        }
    }

    struct Entry: Sendable {
        /// The name as URIs write it: a name that is not UTF-8 by `MediaPath.reversibleText`, as `lsinfo`
        /// names it (so that the name sent back finds the file).
        var name: String
        /// nil for a directory.
        var size: Int?
        var modified: Double
    }

    /// The directory is opened, and each entry looked at, by the path's bytes: its text spelling has U+FFFD
    /// where a name is not UTF-8, and names no file.
    static func entries(of directory: MediaPath) throws -> [Entry] {
        guard let names = directory.entryNames() else {
            throw MPDError(.system, "Failed to open \(directory.string): \(String(cString: strerror(errno)))")
        }
        var entries: [Entry] = []
        for bytes in names where !bytes.contains(UInt8(ascii: "\n")) {
            let name = MediaPath.reversibleText(bytes)
            var info = stat()
            guard directory.appending(MediaPath(bytes: bytes)).withCString({ lstat($0, &info) }) == 0 else { continue }
            let modified = Double(info.st_mtim.tv_sec)
            switch info.st_mode & S_IFMT {
            case S_IFREG: entries.append(Entry(name: name, size: Int(info.st_size), modified: modified))
            case S_IFDIR: entries.append(Entry(name: name, size: nil, modified: modified))
            default: continue
            }
        }
        return entries
    }
}
