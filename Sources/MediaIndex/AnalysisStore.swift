import MediaModel

/// One item's measurements from `mlib analyze`, as stored: the `MediaProperty.analysis` values and the
/// Chromaprint fingerprint. `version` is the analyzer's (`AudioAnalysis.AnalysisRun.version`): an item
/// measured by an older one is measured again. A loudness-only measurement (`mlib analyze --loudness-only`)
/// has neither: nil leaves the stored fingerprint and version as they are, so a later full run still
/// fingerprints the item.
public struct ItemAnalysis: Sendable, Hashable {
    public var id: Int64
    public var loudness: Double
    public var loudnessRange: Double
    public var trackGain: Double?
    public var trackPeak: Double
    public var fingerprint: [UInt32]?
    public var version: Int?

    public init(id: Int64, loudness: Double, loudnessRange: Double, trackGain: Double?, trackPeak: Double,
                fingerprint: [UInt32]?, version: Int?) {
        self.id = id
        self.loudness = loudness
        self.loudnessRange = loudnessRange
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.fingerprint = fingerprint
        self.version = version
    }
}

/// An album's gain and peak (nil: none, e.g. silence), set on all of its items `ids`.
public struct AlbumGain: Sendable, Hashable {
    public var ids: [Int64]
    public var gain: Double?
    public var peak: Double?

    public init(ids: [Int64], gain: Double?, peak: Double?) {
        self.ids = ids
        self.gain = gain
        self.peak = peak
    }
}

/// Where `mlib analyze` keeps what it measured (both stores, in shared `SQLStore` code). The values are
/// columns of `items`, so queries and sorts reach them like any property; they survive rescans, retags
/// and moves, and a trigger of the schema clears them when a scan finds the audio itself changed. Every
/// requirement keeps the store contract (`LibraryStore`).
public protocol AnalysisStore: Sendable {
    /// Writes each item's track values and fingerprint and, with `album`, the album's gain and peak on its
    /// items, all in one transaction (an item gone meanwhile is skipped). One write for an album's tracks and
    /// its gain: a run killed at any moment leaves each album measured whole or as it was, never a track
    /// that looks finished (its `version` stored) without its album's gain.
    func storeAnalysis(_ analyses: [ItemAnalysis], album: AlbumGain?) throws
    /// The stored fingerprints of the items `ids` that have one, by id (the others are absent). One read.
    func fingerprints(ids: [Int64]) throws -> [Int64: [UInt32]]
}

/// The fingerprint's stored form: its 32-bit values, little-endian, one after the other.
package enum FingerprintBlob {
    package static func bytes(_ values: [UInt32]) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(values.count * 4)
        for value in values { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) } }
        return bytes
    }

    package static func values(_ bytes: [UInt8]) -> [UInt32] {
        stride(from: 0, to: bytes.count - bytes.count % 4, by: 4).map { i in
            UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
        }
    }
}
