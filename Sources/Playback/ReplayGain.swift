import Foundation
import MediaModel

/// Which ReplayGain value the player applies, as MPD's `replay_gain_mode`.
public enum ReplayGainMode: String, Sendable, Hashable, CaseIterable {
    /// Samples as decoded.
    case off
    /// Each item at its track gain.
    case track
    /// Each item at its album gain (the track gain when it has none), so an album keeps its dynamics.
    case album
    /// Album gain when the queue plays in order (or by whole albums), track gain when shuffled by songs.
    case auto
}

/// The gain applied to an item: 10^(gain/20) from its ReplayGain tags, limited by the peak so that the
/// loudest sample stays at or below full scale (clipping prevention, as MPD and foobar2000 do).
public enum ReplayGain {
    public static func factor(for item: MediaItem, mode: ReplayGainMode, shuffle: ShuffleMode) -> Float {
        let useAlbum: Bool
        switch mode {
        case .off: return 1
        case .track: useAlbum = false
        case .album: useAlbum = true
        case .auto: useAlbum = shuffle != .songs
        }
        let trackGain = item[.replayGainTrackGain]?.real, trackPeak = item[.replayGainTrackPeak]?.real
        let albumGain = item[.replayGainAlbumGain]?.real, albumPeak = item[.replayGainAlbumPeak]?.real
        let (gain, peak) = useAlbum && albumGain != nil ? (albumGain, albumPeak ?? trackPeak) : (trackGain, trackPeak)
        guard let gain, gain.isFinite else { return 1 }
        var factor = pow(10, gain / 20)
        if let peak, peak > 0, peak.isFinite { factor = min(factor, 1 / peak) }
        return Float(factor)
    }
}
