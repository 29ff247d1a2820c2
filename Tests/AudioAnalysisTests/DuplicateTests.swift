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
        let versions: [(String, [String])] = [
            ("flac", ["-compression_level", "8"]), ("mp3", ["-b:a", "96k"]), ("mp3", ["-b:a", "192k"]), ("mp3", ["-b:a", "320k"]),
            ("opus", ["-c:a", "libopus", "-b:a", "96k"]), ("m4a", ["-c:a", "aac", "-b:a", "128k"]),
            ("mp3", ["-ss", "1.5", "-b:a", "160k"]), ("flac", ["-t", "23"]),
        ]
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
        #expect(recall >= 0.95, "recall \(recall): \(truePairs.count) of \(possible) pairs")
        #expect(precision >= 0.99, "precision \(precision): false \(matches.filter { recordingOf[$0.a] != recordingOf[$0.b] })")
        let clusters = DuplicateFinder().clusters(matches)
        #expect(clusters.count == sources.count)
        for cluster in clusters { #expect(Set(cluster.map { recordingOf[$0]! }).count == 1) }
    }
}
