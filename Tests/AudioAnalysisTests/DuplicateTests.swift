import AudioAnalysis
import Foundation
import Testing

/// `mlib dupes`' finder on a generated set: re-encodings (MP3 at three bit rates, Opus, AAC, FLAC) and
/// trims of 1–2 s of several recordings, among which distinct but similar ones (tones a few semitones apart).
/// Recall is over the pairs of versions of one recording, precision over the pairs found.
@Suite("Duplicate recordings")
struct DuplicateTests {
    @Test func findsEveryReencodingAndNoFalsePair() throws {
        let fixtures = try AnalysisFixtures()
        var recordingOf: [Int64: Int] = [:]
        var fingerprints: [Int64: [UInt32]] = [:]
        var sources: [String] = []
        for (seed, frequency) in [(11, 220), (12, 330), (13, 247)] {
            sources.append(try fixtures.music("r\(seed).flac", seconds: 25, seed: seed, frequency: frequency))
        }
        // Chromaprint's features are chroma (octave-folded pitch classes): a tone matches music dominated by the
        // same pitch class in another octave. The similar-but-distinct tones differ from each other by two or
        // three semitones, and from the music's tones (A, E, B) in pitch class.
        for frequency in [277, 311, 370] {
            sources.append(try fixtures.tone("t\(frequency).flac", seconds: 25, frequency: frequency, channels: 2))
        }
        try Self.expectEveryVersionFound(of: sources, in: fixtures, trim: 23)
    }

    /// 24 recordings × the 8 versions (192 files of 15 s): 16 melodies (a sine changing note 3–6 times a
    /// second, walking the 12 semitones in other orders and tempos: the same pitch classes, other music),
    /// 4 music-like ones (pink noise and a steady tone of A, E, B, D) and 4 steady tones (C#, D#, F#, G#),
    /// similar to each other and to the music. About 4.5 minutes of CPU here, so run on demand:
    /// `MLIB_DUPES_RECALL_SET=1 swift test --filter DuplicateTests`.
    ///
    /// Chromaprint's features are chroma, folded over octaves and dominated by a steady tone: pink noise and
    /// A at 220 Hz matched pink noise of another seed and A at 440 Hz (similarity 0.92–0.94), and noise with
    /// E at 165 Hz matched a steady D# at 311 Hz (0.98), as fpcalc's identical prints would for AcoustID.
    /// Such pairs are not distinct recordings to a fingerprint; the set keeps one recording per pitch class.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MLIB_DUPES_RECALL_SET"] != nil, "MLIB_DUPES_RECALL_SET unset"))
    func findsEveryReencodingAmong24Recordings() throws {
        let fixtures = try AnalysisFixtures()
        var sources: [String] = []
        let walks = [(7, 4), (5, 4), (7, 3), (5, 5), (11, 4), (1, 3), (11, 5), (1, 4), (7, 5), (5, 3), (11, 3), (1, 5),
                     (7, 6), (5, 6), (11, 6), (1, 6)]
        for (index, (step, tempo)) in walks.enumerated() {
            sources.append(try fixtures.melody("melody\(index).flac", seconds: 15, step: step, turn: index + 2, notesPerSecond: tempo))
        }
        for frequency in [220, 330, 247, 294] {
            sources.append(try fixtures.music("m\(frequency).flac", seconds: 15, seed: frequency, frequency: frequency))
        }
        for frequency in [277, 311, 370, 415] {
            sources.append(try fixtures.tone("t\(frequency).flac", seconds: 15, frequency: frequency, channels: 2))
        }
        try Self.expectEveryVersionFound(of: sources, in: fixtures, trim: 13)
    }

    /// Each source in the versions (FLAC, MP3 at 96, 192 and 320 kb/s, Opus, AAC, the first 1.5 s
    /// cut, the end cut at `trim` s) fingerprinted; every pair of versions of one recording must be found
    /// (recall ≥ 95%) and no pair of two (precision ≥ 99%), and the clusters must be the recordings.
    static func expectEveryVersionFound(of sources: [String], in fixtures: AnalysisFixtures, trim: Double) throws {
        let versions: [(String, [String])] = [
            ("flac", ["-compression_level", "8"]), ("mp3", ["-b:a", "96k"]), ("mp3", ["-b:a", "192k"]), ("mp3", ["-b:a", "320k"]),
            ("opus", ["-c:a", "libopus", "-b:a", "96k"]), ("m4a", ["-c:a", "aac", "-b:a", "128k"]),
            ("mp3", ["-ss", "1.5", "-b:a", "160k"]), ("flac", ["-t", "\(trim)"]),
        ]
        var recordingOf: [Int64: Int] = [:]
        var fingerprints: [Int64: [UInt32]] = [:]
        var id: Int64 = 0
        for (recording, source) in sources.enumerated() {
            for (index, (ext, options)) in versions.enumerated() {
                let path = try fixtures.reencode(source, "\(recording)-\(index).\(ext)", options: options)
                id += 1
                fingerprints[id] = try TrackAnalyzer.analyze(path: path).0.fingerprint
                recordingOf[id] = recording
            }
        }
        let matches = DuplicateFinder().matches(fingerprints)
        let truePairs = matches.filter { recordingOf[$0.a] == recordingOf[$0.b] }
        let possible = sources.count * versions.count * (versions.count - 1) / 2
        let recall = Double(truePairs.count) / Double(possible)
        let precision = matches.isEmpty ? 1 : Double(truePairs.count) / Double(matches.count)
        print("dupes on \(sources.count) recordings × \(versions.count) versions: recall \(truePairs.count)/\(possible) = \(recall), precision \(truePairs.count)/\(matches.count) = \(precision)")
        #expect(recall >= 0.95, "recall \(recall): \(truePairs.count) of \(possible) pairs")
        let falsePairs = Set(matches.filter { recordingOf[$0.a] != recordingOf[$0.b] }.map {
            [sources[recordingOf[$0.a]!], sources[recordingOf[$0.b]!]].map { URL(fileURLWithPath: $0).lastPathComponent }.sorted().joined(separator: " ~ ")
        })
        #expect(precision >= 0.99, "precision \(precision): false pairs between \(falsePairs.sorted())")
        let clusters = DuplicateFinder().clusters(matches)
        #expect(clusters.count == sources.count)
        for cluster in clusters { #expect(Set(cluster.map { recordingOf[$0]! }).count == 1) }
    }
}
