import Foundation
import MediaModel

/// Writes a song as MPD does: `file`, `Last-Modified`, `Format`, the tags, `Time` and `duration`.
struct SongWriter {
    let uris: LibraryURIs
    /// The client's `tagtypes` selection.
    var enabledTags: Set<String>? = nil

    func write(_ item: MediaItem, to out: inout Response) {
        out.field("file", uris.uri(of: item.path) ?? item.path.string)
        if let modified = item[.modificationDate]?.real {
            out.field("Last-Modified", MPDFormat.timestamp(Date(timeIntervalSince1970: modified)))
        }
        if let format = Self.audioFormat(item) { out.field("Format", format) }
        for tag in MPDTag.all {
            if let enabledTags, !enabledTags.contains(tag.name) { continue }
            guard let value = tag.value(in: item) else { continue }
            // Several values of one tag are joined with "; " in the index: MPD prints one line each.
            // (Split only when there is a ";": Foundation's split showed in the profile of every song.)
            if tag.rawKey != nil || tag.property?.spec.type == .text {
                if value.isEmpty { continue }
                if value.utf8.contains(UInt8(ascii: ";")) {
                    for part in value.components(separatedBy: "; ") where !part.isEmpty { out.field(tag.name, part) }
                    continue
                }
            }
            out.field(tag.name, value)
        }
        if item.playbackDuration > 0 {
            out.field("Time", Int(item.playbackDuration.rounded()))
            out.field("duration", MPDFormat.seconds(item.playbackDuration))
        }
    }

    /// `rate:bits:channels` as MPD's `Format` (bits "f" for decoders that give floats: lossy codecs).
    static func audioFormat(_ item: MediaItem) -> String? {
        guard let rate = item[.sampleRate]?.integer, rate > 0 else { return nil }
        let channels = item[.channels]?.integer ?? 2
        let bits = item[.bitDepth]?.integer.flatMap { $0 > 0 ? String($0) : nil } ?? "f"
        return "\(rate):\(bits):\(channels)"
    }
}
