import Foundation
import MediaDecode
import Synchronization

/// Scaled covers kept on disk beside the library (`<library>.covers/`, next to its users' key file), so a
/// phone scrolling an album grid asks FFmpeg for each size once. An entry's name is a hash of the source
/// (the cover file's or the song's path, its modification time and size) and the asked size: a changed
/// picture gets a new entry, never a stale one. Bounded: past `maximumBytes` the least recently written
/// entries are deleted.
final class CoverCache: Sendable {
    let directory: String
    let maximumBytes: Int
    private let written = Mutex(0)

    init(directory: String, maximumBytes: Int = 64 << 20) {
        self.directory = directory
        self.maximumBytes = maximumBytes
    }

    /// The cache of a library whose key file is `keyFile` (`x.users-key` → `x.covers`).
    convenience init(besideKeyFile keyFile: String) {
        let base = keyFile.hasSuffix(".users-key") ? String(keyFile.dropLast(".users-key".count)) : keyFile
        self.init(directory: base + ".covers")
    }

    /// The scaled picture for `source` (the file the bytes came from) at `size`: from the cache, else made
    /// by `scale` and stored (a cache that cannot be written is skipped, not an error).
    func image(source: String, size: Int, scale: () throws -> ImageScaler.Image?) throws -> (bytes: [UInt8], mimeType: String)? {
        var info = stat()
        guard stat(source, &info) == 0 else { return try scale().map { ($0.bytes, $0.mimeType) } }
        let key = "\(source)\u{0}\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\u{0}\(info.st_size)\u{0}\(size)"
        let name = Catalog.hash(key)
        for (suffix, type) in [("jpg", "image/jpeg"), ("png", "image/png")] {
            if let data = FileManager.default.contents(atPath: "\(directory)/\(name).\(suffix)"), !data.isEmpty {
                return (Array(data), type)
            }
        }
        guard let image = try scale() else { return nil }
        store(image, name: "\(name).\(image.mimeType == "image/png" ? "png" : "jpg")")
        return (image.bytes, image.mimeType)
    }

    private func store(_ image: ImageScaler.Image, name: String) {
        let fm = FileManager.default
        try? fm.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = "\(directory)/.\(name).\(UUID().uuidString)"
        guard fm.createFile(atPath: temporary, contents: Data(image.bytes)) else { return }
        guard rename(temporary, "\(directory)/\(name)") == 0 else { unlink(temporary); return }
        // Trim now and then (every 32 writes), not at each: listing the folder costs more than a write.
        let count = written.withLock { $0 += 1; return $0 }
        if count % 32 == 1 { trim() }
    }

    /// Deletes the oldest entries until the cache holds at most `maximumBytes`.
    func trim() {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        var entries: [(path: String, size: Int, date: Date)] = []
        for name in names where !name.hasPrefix(".") {
            let path = "\(directory)/\(name)"
            guard let attributes = try? fm.attributesOfItem(atPath: path) else { continue }
            entries.append((path, (attributes[.size] as? Int) ?? 0, (attributes[.modificationDate] as? Date) ?? .distantPast))
        }
        var total = entries.reduce(0) { $0 + $1.size }
        for entry in entries.sorted(by: { $0.date < $1.date }) where total > maximumBytes {
            if unlink(entry.path) == 0 { total -= entry.size }
        }
    }
}
