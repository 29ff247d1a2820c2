import MediaDecode
import MediaModel

/// Decodes a file once and feeds, from the same samples, the loudness meter and the fingerprinter.
public enum TrackAnalyzer {
    /// The decoder's reason without its path: the run's failure names the file once (`path: reason`).
    static func reason(_ error: any Error) -> String { (error as? DecodeError)?.message ?? "\(error)" }

    /// The analysis of `path`, and its loudness meter for the album's gain (see `LoudnessMeter`). With
    /// `fingerprint` false Chromaprint is not run and the analysis' fingerprint is empty.
    /// `path` is opened by its bytes (a name that is not UTF-8 too).
    public static func analyze(path: MediaPath, truePeak: Bool = false, fingerprint: Bool = true,
                               fingerprintSeconds: Double = Fingerprinter.defaultLength) throws(AnalysisError) -> (TrackAnalysis, LoudnessMeter) {
        let decoder: AudioDecoder<Float>
        do { decoder = try AudioDecoder<Float>(path: path) } catch { throw .decode(Self.reason(error)) }
        let meter = try LoudnessMeter(channels: decoder.channels, sampleRate: decoder.sampleRate, truePeak: truePeak)
        let fingerprinter = fingerprint
            ? try Fingerprinter(channels: decoder.channels, sampleRate: decoder.sampleRate, seconds: fingerprintSeconds) : nil
        var frames = 0
        while true {
            let chunk: [Float]?
            do { chunk = try decoder.read() } catch { throw .decode(Self.reason(error)) }
            guard let chunk else { break }
            frames += chunk.count / decoder.channels
            try chunk.withUnsafeBufferPointer { (samples) throws(AnalysisError) in
                meter.add(samples)
                try fingerprinter?.add(samples)
            }
        }
        let analysis = TrackAnalysis(loudness: meter.integratedLoudness, loudnessRange: meter.loudnessRange, peak: meter.peak,
                                     truePeak: truePeak, fingerprint: try fingerprinter?.finish() ?? [],
                                     duration: Double(frames) / Double(decoder.sampleRate))
        return (analysis, meter)
    }

    /// The fingerprint alone (MPD's `getfingerprint` for an item not analysed): the file decoded only as
    /// far as Chromaprint takes it (its first `seconds`), the same print as `analyze` stores.
    public static func fingerprint(path: MediaPath, seconds: Double = Fingerprinter.defaultLength) throws(AnalysisError) -> [UInt32] {
        let decoder: AudioDecoder<Float>
        do { decoder = try AudioDecoder<Float>(path: path) } catch { throw .decode(Self.reason(error)) }
        let fingerprinter = try Fingerprinter(channels: decoder.channels, sampleRate: decoder.sampleRate, seconds: seconds)
        while fingerprinter.wantsMore {
            let chunk: [Float]?
            do { chunk = try decoder.read() } catch { throw .decode(Self.reason(error)) }
            guard let chunk else { break }
            try chunk.withUnsafeBufferPointer { (samples) throws(AnalysisError) in try fingerprinter.add(samples) }
        }
        return try fingerprinter.finish()
    }

    /// `analyze` of a UTF-8 path.
    public static func analyze(path: String, truePeak: Bool = false, fingerprint: Bool = true,
                               fingerprintSeconds: Double = Fingerprinter.defaultLength) throws(AnalysisError) -> (TrackAnalysis, LoudnessMeter) {
        try analyze(path: MediaPath(path), truePeak: truePeak, fingerprint: fingerprint, fingerprintSeconds: fingerprintSeconds)
    }
}
