import Foundation
import Library
import MediaModel

/// Writes a song as MPD does: `file`, `Last-Modified`, `Format`, the tags, `Time` and `duration`.
struct SongWriter {
    let uris: LibraryURIs
    /// The client's `tagtypes` selection.
    var enabledTags: Set<String>? = nil

    func write(_ item: MediaItem, to out: inout Response) {
        out.field("file", uris.uri(of: item.path) ?? item.path.string)
        if let modified = item[.modificationDate]?.real {
            out.timestamp("Last-Modified", seconds: modified)
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
                    for part in MediaProperty.splitValues(value) where !part.isEmpty { out.field(tag.name, part) }
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

    /// The same lines for an item of the view (`ViewSchema.mpd`): its printed values were made by the
    /// functions `write(_:to:)` uses, so both print a song alike.
    func write(_ item: Int32, of view: LibrarySnapshot, to out: inout Response) {
        out.field("file", uris.uri(of: view.paths[Int(item)]) ?? view.paths[Int(item)].string)
        let modified = view.modified[Int(item)]
        if !modified.isNaN { out.timestamp("Last-Modified", seconds: modified) }
        if let format = view.value(item, slot: 0) { out.field("Format", format) }
        for (index, tag) in MPDTag.all.enumerated() {
            if let enabledTags, !enabledTags.contains(tag.name) { continue }
            let slot = index + 1
            let value = view.cell(item, slot: slot)
            guard value != 0 else { continue }
            if view.isMultiValued(value, slot: slot) {
                for part in view.parts(value, slot: slot) { out.field(tag.name, view.string(part, slot: slot)) }
            } else {
                out.field(tag.name, view.string(value, slot: slot))
            }
        }
        let duration = view.durations[Int(item)]
        if duration > 0 {
            out.field("Time", Int(duration.rounded()))
            out.field("duration", MPDFormat.seconds(duration))
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
