import ArgumentParser
import AudioAnalysis
import Foundation
import MediaIndex
import MediaModel

/// `mlib dupes [QUERY]`: files of the same recording, by their Chromaprint fingerprints (`mlib analyze`).
struct Dupes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dupes",
        abstract: "List files that are the same recording (by acoustic fingerprint), best copy first.",
        discussion: """
            Uses the fingerprints `mlib analyze` stored: an inverted index of fingerprint values finds the \
            candidates of each file (never all pairs), and a candidate is the same recording when, aligned at \
            the offset the shared values agree on (a trim moves it), the fingerprints agree in at least \
            --min-similarity of their bits. Re-encodings (MP3, AAC, Opus, FLAC…), trims and retagged copies \
            are found. Each cluster lists its files best first: lossless before lossy, then higher bit rate; \
            each line shows format, bit rate, size and path. Items not yet analysed are not compared.

            Examples:
              mlib analyze && mlib dupes
              mlib dupes artist:Björk --json
              mlib dupes --min-similarity 0.9

            \(ExitStatus.help(one: nil))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(name: .long, help: "Share of equal fingerprint bits from which two files are one recording (0.5–1).")
    var minSimilarity: Double = DuplicateFinder().minSimilarity

    @Flag(name: .long, help: "Print the clusters as JSON.")
    var json = false

    @Argument(help: ArgumentHelp("Query: short-form terms or a predicate (see mlib-query(7)); all items when none.", valueName: "query"),
              completion: Completions.queryTerms)
    var query: [String] = []

    func validate() throws {
        if !(0.5...1).contains(minSimilarity) { throw ValidationError("--min-similarity must be between 0.5 and 1") }
    }

    func run() async throws {
        let filter = query.isEmpty ? MediaModel.Predicate.all : try QueryInput.predicate(query)
        let store = try libraryOptions.open()
        let clusters = try DuplicateCluster.find(in: store, query: MediaQuery(filter: filter),
                                                 finder: DuplicateFinder(minSimilarity: minSimilarity))
        if json { return try JSONOutput.write(clusters) }
        for (index, cluster) in clusters.enumerated() {
            if index > 0 { print("") }
            for member in cluster.members {
                let format = member.fileType ?? member.codec ?? "?"
                let rate = member.bitRate.map { "\(($0 + 500) / 1000) kb/s" } ?? "? kb/s"
                let size = member.fileSize.map(Format.bytes) ?? "?"
                print("\(format)\t\(rate)\t\(size)\t\(member.path)")
            }
        }
    }
}
