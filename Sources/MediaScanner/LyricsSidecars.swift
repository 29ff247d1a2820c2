#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MediaIndex
import MediaModel
import MediaProbe

/// The scan's side of issue 41: lyrics sidecars found in the folder listing the walk makes anyway (no second
/// walk, and a stat only for a sidecar name whose stem is a media file's), and the lyrics a read file gives
/// the index: its tags' (from the probe: no second TagLib open) and its sidecars', as `StoredLyrics` rows
/// and the item's `hasLyrics`, `hasSyncedLyrics`, `lyricsLanguage`.
enum LyricsSidecars {
    /// Whether a directory entry's name is a lyrics sidecar's (`LyricsReader.sidecarExtensions`, any case).
    static func isSidecarName(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, name.count - dot - 1 <= 4 else { return false }
        let ext = String(decoding: name[(dot + 1)...].map { $0 | 0x20 }, as: UTF8.self)
        return LyricsReader.sidecarExtensions.contains(ext)
    }

    /// A name without its extension ("song.mp3" → "song"); nil without one.
    static func stem(_ name: [UInt8]) -> [UInt8]? {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return nil }
        return Array(name[..<dot])
    }

    /// Of `candidates` (sidecar names in the folder open as `directory`), those whose stem is one of the media
    /// `files`' stems, with their stamps (a stat each: only these), by stem. Regular files only (a FIFO
    /// named song.lrc is never opened).
    static func found(_ candidates: [[UInt8]], files: [DirectoryListing.File], directory: OpaquePointer) -> [[UInt8]: [SidecarStamp]] {
        guard !candidates.isEmpty else { return [:] }
        let stems = Set(files.compactMap { stem($0.path.lastComponent.bytes) })
        var found: [[UInt8]: [SidecarStamp]] = [:]
        for name in candidates.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            guard let stem = stem(name), stems.contains(stem) else { continue }
            var st = stat()
            let result = (name + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { fstatat(dirfd(directory), $0.baseAddress!, &st, 0) }
            }
            guard result == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            found[stem, default: []].append(SidecarStamp(name: name, stamp: FileStamp(st)))
        }
        return found
    }

    /// The sidecars of a media file that is not in a listing (`MediaScanner.refresh` when its folder cannot
    /// be listed): the names `LyricsReader` looks for, stat'ed.
    static func lookUp(_ path: MediaPath) -> [SidecarStamp] {
        guard let stem = stem(path.lastComponent.bytes) else { return [] }
        var found: [SidecarStamp] = []
        for ext in LyricsReader.sidecarExtensions {
            for spelling in Set([ext, ext.uppercased()]).sorted() {
                let name = stem + [UInt8(ascii: ".")] + Array(spelling.utf8)
                var st = stat()
                guard path.directory.appending(MediaPath(bytes: name)).withCString({ stat($0, &st) }) == 0,
                      st.st_mode & S_IFMT == S_IFREG else { continue }
                found.append(SidecarStamp(name: name, stamp: FileStamp(st)))
            }
        }
        return found
    }

    /// The sidecars of media files of the folder `directory` (`MediaScanner.refresh`): the folder's names read
    /// once and the sidecar-named ones stat'ed, as a scan does, by stem; nil when the folder cannot be listed.
    static func lookUp(_ files: [DirectoryListing.File], in directory: MediaPath) -> [[UInt8]: [SidecarStamp]]? {
        let fd = directory.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        guard let dir = fdopendir(fd) else {
            close(fd)
            return nil
        }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
            }
            if isSidecarName(name) { names.append(name) }
        }
        return found(names, files: files, directory: dir)
    }

    /// Whether the sidecars a listing shows differ from those the index recorded (added, changed, removed).
    static func differ(_ listed: [SidecarStamp], _ recorded: [SidecarStamp]) -> Bool {
        Set(listed) != Set(recorded)
    }

    /// The lyrics of a read file: its tags' (`probe.lyrics`) then its sidecars', as rows; and the item's
    /// summary properties set from them.
    static func read(_ probe: ProbeResult, path: MediaPath, sidecars: [SidecarStamp], into item: inout MediaItem) -> [StoredLyrics] {
        let durationMs = item.playbackDuration > 0 ? Int((item.playbackDuration * 1000).rounded()) : nil
        var rows = probe.lyrics.map { stored($0, sidecar: nil) }
        // The same precedence as `LyricsReader.sidecars`: .elrc, .lrc, .txt.
        let ordered = sidecars.sorted { rank($0.name) < rank($1.name) || (rank($0.name) == rank($1.name) && $0.name.lexicographicallyPrecedes($1.name)) }
        for sidecar in ordered {
            var warnings: [String] = []
            guard let lyrics = LyricsReader.sidecar(path.directory.appending(MediaPath(bytes: sidecar.name)), durationMs: durationMs,
                                                    warnings: &warnings) else { continue }
            rows.append(stored(lyrics, sidecar: sidecar))
        }
        Lyrics.summarize(rows.map { ($0.isSynced, $0.language) }, into: &item)
        return rows
    }

    private static func rank(_ name: [UInt8]) -> Int {
        let ext = String(decoding: name.split(separator: UInt8(ascii: ".")).last.map { $0.map { $0 | 0x20 } } ?? [], as: UTF8.self)
        return LyricsReader.sidecarExtensions.firstIndex(of: ext) ?? LyricsReader.sidecarExtensions.count
    }

    /// `Lyrics`' Codable form: read back as it was (`LibraryLyrics`).
    static func body(_ lyrics: Lyrics) -> String {
        (try? JSONEncoder().encode(lyrics)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func stored(_ lyrics: Lyrics, sidecar: SidecarStamp?) -> StoredLyrics {
        StoredLyrics(source: lyrics.source.rawValue, origin: lyrics.origin, language: lyrics.language?.lowercased(),
                     isSynced: lyrics.isSynced, text: lyrics.text, body: body(lyrics), sidecar: sidecar)
    }
}
