import Foundation
import MediaModel
import MediaDecode
import Synchronization

/// The one cover look-up of every front (Subsonic `getCoverArt`, MPD `albumart` and `readpicture`): which
/// file names count as a folder's cover, the containment rule (`FileContainment`: a `cover.jpg` linked
/// out of the roots is not read), a size cap, and a cache. Its calls read files: callers run them off
/// their event loops.
public final class CoverLookup: Sendable {
    /// A folder's cover files, in the order they are looked for (MPD's names first, then Subsonic's usual
    /// extra `album.jpg`; each lower-case, then capitalised).
    public static let names: [String] = {
        let stems = ["cover", "folder", "front", "album"], extensions = ["jpg", "jpeg", "png", "webp"]
        var names: [String] = []
        for stem in stems {
            for ext in extensions { names.append("\(stem).\(ext)") }
            for ext in extensions { names.append("\(stem.prefix(1).uppercased())\(stem.dropFirst()).\(ext)") }
        }
        return names
    }()

    /// The most entries a folder is listed for (`folderCover`): reading a name costs ~0.3 µs and 32 failing
    /// opens ~40 µs (ext4, measured in C), so past a few hundred names the opens are cheaper, and a listing
    /// stopped there costs at most as much again.
    static let listedEntries = 256

    /// A cover (file or embedded) larger than this is not sent: 16 MiB.
    public let maximumSize: Int
    private let cache: Mutex<Cache>

    public struct Picture: Sendable, Hashable {
        public var bytes: [UInt8]
        public var mimeType: String
        /// The file it came from (its real path), for caches of scaled copies.
        public var source: MediaPath
        public var modified: Int64
    }

    public init(maximumSize: Int = 16 << 20, cacheBytes: Int = 32 << 20) {
        self.maximumSize = maximumSize
        cache = Mutex(Cache(limit: cacheBytes))
    }

    /// The cover file in `directory` (the first of `names` that opens within `roots`), or nil.
    public func folderCover(in directory: MediaPath, roots: [MediaPath]) -> Picture? {
        let containment = FileContainment(roots: roots)
        for name in Self.candidates(in: directory) {
            guard let file = try? containment.open(directory.appending(MediaPath(name)), maximumSize: maximumSize), file.size > 0 else { continue }
            let key = Cache.Key(path: file.realPath, modified: Self.stamp(file), size: file.size, embedded: false)
            if let hit = cache.withLock({ $0[key] }) { return hit }
            guard let bytes = try? file.readAll(), bytes.count == file.size else { continue }
            let picture = Picture(bytes: bytes, mimeType: Self.mimeType(of: name), source: file.realPath, modified: key.modified)
            cache.withLock { $0[key] = picture }
            return picture
        }
        return nil
    }

    /// Whether `directory` has a cover file `folderCover` would send (within `roots`, not empty, not past
    /// `maximumSize`), without reading it: a TV's first walk asks this of every album's folder, and reading
    /// each cover whole to answer it read every cover of the library.
    public func hasFolderCover(in directory: MediaPath, roots: [MediaPath]) -> Bool {
        let containment = FileContainment(roots: roots)
        return Self.candidates(in: directory).contains { name in
            ((try? containment.open(directory.appending(MediaPath(name)), maximumSize: maximumSize))?.size ?? 0) > 0
        }
    }

    /// The cover names `directory` holds, in `names`' order. The folder is listed once and only the names it
    /// has are opened: trying all 32 was 32 failed opens for a folder without a cover (a TV's first walk of
    /// 2,000 files: 4,300 opens, 25 ms). Every name when the folder cannot be listed or holds more than
    /// `listedEntries`.
    static func candidates(in directory: MediaPath) -> [String] {
        guard let listed = directory.entryNames(limit: listedEntries).map(Set.init) else { return names }
        return names.filter { listed.contains(Array($0.utf8)) }
    }

    /// The picture embedded in `song` (read through the contained descriptor), or nil.
    public func embeddedPicture(of song: MediaPath, roots: [MediaPath]) -> Picture? {
        guard let file = try? FileContainment(roots: roots).open(song) else { return nil }
        let key = Cache.Key(path: file.realPath, modified: Self.stamp(file), size: file.size, embedded: true)
        if let hit = cache.withLock({ $0[key] }) { return hit }
        guard let embedded = EmbeddedPicture.read(file.procPath), !embedded.data.isEmpty, embedded.data.count <= maximumSize else { return nil }
        let picture = Picture(bytes: embedded.data, mimeType: embedded.mimeType ?? "image/jpeg", source: file.realPath, modified: key.modified)
        cache.withLock { $0[key] = picture }
        return picture
    }

    /// A song's cover: its folder's cover file, else its embedded picture.
    public func cover(of song: MediaPath, roots: [MediaPath]) -> Picture? {
        folderCover(in: song.directory, roots: roots) ?? embeddedPicture(of: song, roots: roots)
    }

    public static func mimeType(of name: String) -> String {
        switch MediaPath(name).fileExtension.lowercased() {
        case "png": "image/png"
        case "webp": "image/webp"
        default: "image/jpeg"
        }
    }

    private static func stamp(_ file: ContainedFile) -> Int64 {
        Int64(file.modified.tv_sec) &* 1_000_000_000 &+ Int64(file.modified.tv_nsec)
    }

    /// Pictures by file (real path, modification time, size: a changed file is a new key), the least
    /// recently used dropped past `limit` bytes.
    struct Cache {
        struct Key: Hashable { var path: MediaPath; var modified: Int64; var size: Int; var embedded: Bool }
        let limit: Int
        private var entries: [Key: (picture: Picture, used: UInt64)] = [:]
        private var bytes = 0, clock: UInt64 = 0

        init(limit: Int) { self.limit = limit }

        subscript(key: Key) -> Picture? {
            mutating get {
                guard var entry = entries[key] else { return nil }
                clock += 1
                entry.used = clock
                entries[key] = entry
                return entry.picture
            }
            set {
                guard let newValue, newValue.bytes.count <= limit else { return }
                clock += 1
                if let old = entries.updateValue((newValue, clock), forKey: key) { bytes -= old.picture.bytes.count }
                bytes += newValue.bytes.count
                while bytes > limit, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
                    bytes -= oldest.value.picture.bytes.count
                    entries[oldest.key] = nil
                }
            }
        }
    }
}
