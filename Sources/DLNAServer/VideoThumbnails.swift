import Foundation
import MediaDecode
import MediaModel
import Synchronization

/// Each video's JPEG_TN still (`VideoThumbnail`: a frame a tenth of the way in, 160 px at most), made on
/// the first request and kept in memory: a TV lists videos again and again, and decoding a frame costs tens of
/// milliseconds where a cached answer costs a lookup. Keyed by the item's id and its file's modification time
/// and size, so a file replaced in place gets a new still; bounded by bytes (the oldest made go first), so a
/// library of many videos costs at most `capacity`.
final class VideoThumbnails: Sendable {
    struct Key: Hashable { var id: Int64; var modified: Int; var size: Int }

    private struct Cache {
        var images: [Key: [UInt8]] = [:]
        var order: [Key] = []
        var bytes = 0
    }

    let capacity: Int
    private let cache = Mutex(Cache())

    init(capacity: Int = 16 << 20) { self.capacity = capacity }

    /// The still of item `id` at `path` when it is already made (a lookup: no decoding), else nil.
    func cached(id: Int64, path: MediaPath) -> [UInt8]? {
        guard let key = Self.key(id: id, path: path) else { return nil }
        return cache.withLock { $0.images[key] }
    }

    private static func key(id: Int64, path: MediaPath) -> Key? {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
        return Key(id: id, modified: Int(info.st_mtim.tv_sec), size: Int(info.st_size))
    }

    /// The still of item `id` at `path`, or nil when the file is gone or has no frame FFmpeg decodes.
    func jpeg(id: Int64, path: MediaPath) -> [UInt8]? {
        guard let key = Self.key(id: id, path: path) else { return nil }
        if let cached = cache.withLock({ $0.images[key] }) { return cached }
        guard let image = try? VideoThumbnail.jpeg(path) else { return nil }
        cache.withLock { cache in
            guard cache.images[key] == nil else { return }
            cache.images[key] = image.bytes
            cache.order.append(key)
            cache.bytes += image.bytes.count
            while cache.bytes > capacity, !cache.order.isEmpty {
                let oldest = cache.order.removeFirst()
                cache.bytes -= cache.images.removeValue(forKey: oldest)?.count ?? 0
            }
        }
        return image.bytes
    }
}
