import Foundation
import MediaModel

/// The tags `mlib analyze --write` writes, spelled and formatted as loudgain (0.6.8, `-s e`) and rsgain
/// write them, so that players reading either find the same values:
///
/// - every format but Opus: `REPLAYGAIN_TRACK_GAIN` "-6.52 dB", `REPLAYGAIN_TRACK_PEAK` "0.912345" (linear, 6
///   decimals), the same two for the album, and `REPLAYGAIN_REFERENCE_LOUDNESS` "-18.00 LUFS", as TagLib's
///   PropertyMap keys: TagLib writes them as ID3v2 `TXXX:REPLAYGAIN_…`, Vorbis comments, MP4
///   `----:com.apple.iTunes:REPLAYGAIN_…`, APE items and ASF attributes (`TagFieldMapping`'s "other keys").
/// - Opus: only `R128_TRACK_GAIN` and `R128_ALBUM_GAIN`, Q7.8 integers (dB × 256, rounded) relative to
///   -23 LUFS (RFC 7845 §5.2.1: R128 is EBU R128's reference, 5 dB below ReplayGain 2.0's -18), and the
///   REPLAYGAIN_* fields removed (the RFC: an Opus comment header SHOULD NOT contain them; loudgain
///   removes them). No peak: the RFC has none.
///
/// A value that is not measured (an album gain of an album one of whose tracks failed) removes its
/// fields, as loudgain removes the old fields before writing: a stale album gain beside a new track gain
/// would be worse than none.
public enum ReplayGainFields {
    /// One file's values, as `mlib analyze` stores them (gains in dB to -18 LUFS, peaks linear).
    public struct Values: Sendable, Equatable {
        public var trackGain: Double
        public var trackPeak: Double
        public var albumGain: Double?
        public var albumPeak: Double?

        public init(trackGain: Double, trackPeak: Double, albumGain: Double?, albumPeak: Double?) {
            self.trackGain = trackGain
            self.trackPeak = trackPeak
            self.albumGain = albumGain
            self.albumPeak = albumPeak
        }

        /// The values `mlib analyze` stored in `item`; nil when it has no track gain (never analysed, or
        /// digital silence, which no gain brings to the reference).
        public init?(_ item: MediaItem) {
            guard let gain = item[.trackGain]?.real, let peak = item[.trackPeak]?.real else { return nil }
            self.init(trackGain: gain, trackPeak: peak, albumGain: item[.albumGain]?.real, albumPeak: item[.albumPeak]?.real)
        }
    }

    /// ReplayGain 2.0's reference loudness, which the gains bring a track to.
    public static let referenceLoudness = -18.0
    /// R128's (RFC 7845): the R128_* gains are relative to it.
    public static let r128ReferenceLoudness = -23.0

    public static let replayGainKeys = [
        "REPLAYGAIN_TRACK_GAIN", "REPLAYGAIN_TRACK_PEAK", "REPLAYGAIN_ALBUM_GAIN", "REPLAYGAIN_ALBUM_PEAK",
        "REPLAYGAIN_REFERENCE_LOUDNESS",
    ]
    /// loudgain's `-s e` extras, removed from Opus files with the others (loudgain does).
    static let rangeKeys = ["REPLAYGAIN_TRACK_RANGE", "REPLAYGAIN_ALBUM_RANGE"]
    public static let r128Keys = ["R128_TRACK_GAIN", "R128_ALBUM_GAIN"]

    /// The edit that writes what `mlib analyze` stored in `item` into its file; nil when there is nothing to
    /// write (no track gain). Opus by the item's audio codec, whatever the file's name.
    public static func edit(for item: MediaItem) -> TagEdit? {
        Values(item).map { TagEdit(changes: changes($0, opus: item[.audioCodec]?.text == "opus")) }
    }

    /// The changes that write `values` into a file; `opus`: the file's audio is Opus (R128_* instead).
    public static func changes(_ values: Values, opus: Bool) -> [TagChange] {
        func set(_ key: String, _ value: String?) -> TagChange {
            TagChange(field: key, key: key, operation: value.map { .set($0) } ?? .remove)
        }
        if opus {
            return (replayGainKeys + rangeKeys).map { set($0, nil) } + [
                set("R128_TRACK_GAIN", q78(values.trackGain)),
                set("R128_ALBUM_GAIN", values.albumGain.map(q78)),
            ]
        }
        return [
            set("REPLAYGAIN_TRACK_GAIN", gain(values.trackGain)),
            set("REPLAYGAIN_TRACK_PEAK", peak(values.trackPeak)),
            set("REPLAYGAIN_ALBUM_GAIN", values.albumGain.map(gain)),
            set("REPLAYGAIN_ALBUM_PEAK", values.albumGain == nil ? nil : values.albumPeak.map(peak)),
            set("REPLAYGAIN_REFERENCE_LOUDNESS", String(format: "%.2f LUFS", referenceLoudness)),
        ]
    }

    /// loudgain's and rsgain's gain: "%.2f dB".
    public static func gain(_ dB: Double) -> String { String(format: "%.2f dB", dB) }

    /// Their peak: linear, "%.6f".
    public static func peak(_ linear: Double) -> String { String(format: "%.6f", linear) }

    /// A ReplayGain gain (to -18 LUFS) as an R128 gain: to -23 LUFS, in Q7.8 (round(dB × 256), loudgain's
    /// and rsgain's rounding), kept within the 16 bits the RFC gives it.
    public static func q78(_ replayGain: Double) -> String {
        let r128 = replayGain + (r128ReferenceLoudness - referenceLoudness)
        return String(Int(max(-32_768, min(32_767, (r128 * 256).rounded()))))
    }
}
