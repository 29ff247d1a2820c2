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

/// The gain applied to an item: 10^(gain/20) from its ReplayGain tags (else its analysed gain), limited by the peak so that the
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
        // The file's ReplayGain tags when it has any; else what `mlib analyze` measured (the same ReplayGain 2.0
        // values, kept in the index), so a library need not be tagged to play at even loudness.
        let tagged = item[.replayGainTrackGain] != nil || item[.replayGainAlbumGain] != nil
        let trackGain = item[tagged ? .replayGainTrackGain : .trackGain]?.real
        let trackPeak = item[tagged ? .replayGainTrackPeak : .trackPeak]?.real
        let albumGain = item[tagged ? .replayGainAlbumGain : .albumGain]?.real
        let albumPeak = item[tagged ? .replayGainAlbumPeak : .albumPeak]?.real
        let (gain, peak) = useAlbum && albumGain != nil ? (albumGain, albumPeak ?? trackPeak) : (trackGain, trackPeak)
        guard let gain, gain.isFinite else { return 1 }
        var factor = pow(10, gain / 20)
        if let peak, peak > 0, peak.isFinite { factor = min(factor, 1 / peak) }
        return Float(factor)
    }
}
