import ArgumentParser
import AudioAnalysis
import Foundation
import MediaIndex
import MediaModel

/// `mlib analyze [QUERY]`: loudness (EBU R128, ReplayGain 2.0 gains) and fingerprints of the matching
/// items, in one decode pass per file, into the index (`AudioAnalysis.AnalysisRun` does the work).
struct Analyze: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Measure loudness (EBU R128, ReplayGain 2.0) and acoustic fingerprints of the items matching a query.",
        discussion: """
            Each file is decoded once; the same samples feed an EBU R128 meter (integrated loudness, loudness \
            range, sample peak, gated and weighted as libebur128 does; libebur128's true peak with --true-peak) \
            and Chromaprint (the first 120 s, as fpcalc). Files are measured in parallel on all cores; each \
            album's gain is measured over all its tracks together (their gating blocks taken together, as \
            libebur128's loudness of several inputs, not the mean of the tracks' gains). Results are stored as \
            they come: an interrupted run keeps what finished, and the next run measures only what is missing \
            or whose audio a scan found changed (a retag or a move keeps the results). A progress line with an \
            ETA is shown when standard error is a terminal. The values are the properties loudness (LUFS), \
            loudnessRange (LU), trackGain and albumGain (dB, to -18 LUFS), trackPeak and albumPeak (linear), \
            and analysisVersion: `mlib ls 'loudness > -9'`, `mlib ls --sort loudness`. `mlib dupes` uses the \
            fingerprints. With --loudness-only Chromaprint is not run: the loudness values and gains are \
            measured (items without a loudness, or all with --force), fingerprints already stored are kept, and \
            items never fingerprinted are fingerprinted by the next run without it.

            Examples:
              mlib analyze
              mlib analyze artist:Björk --true-peak
              mlib analyze --json
              mlib analyze --loudness-only

            \(ExitStatus.help(one: "some files could not be decoded (each is named on standard error)"))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .long, help: "Measure true peaks (4× oversampled) instead of sample peaks.")
    var truePeak = false

    @Flag(name: .long, help: "Measure again items already measured.")
    var force = false

    @Flag(name: .long, help: "Measure loudness and gains only, without fingerprints (faster; stored fingerprints are kept).")
    var loudnessOnly = false

    @Option(name: .shortAndLong, help: "Files decoded at once (default: the number of cores).")
    var jobs: Int?

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    @Flag(name: .shortAndLong, help: "No progress line and no summary.")
    var quiet = false

    @Argument(help: ArgumentHelp("Query: short-form terms or a predicate (see mlib-query(7)); all items when none.", valueName: "query"),
              completion: Completions.queryTerms)
    var query: [String] = []

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        let filter = query.isEmpty ? MediaModel.Predicate.all : try QueryInput.predicate(query)
        let store = try libraryOptions.open()
        let display = !quiet && !json && isatty(STDERR_FILENO) == 1 ? ProgressLine() : nil
        let run = AnalysisRun(truePeak: truePeak, jobs: jobs, force: force, loudnessOnly: loudnessOnly)
        let summary = try await run.run(store, query: MediaQuery(filter: filter)) { display?.show($0) }
        display?.clear()
        for failure in summary.failures { printError("\(failure.path): \(failure.message)") }
        if json {
            try JSONOutput.write(summary)
        } else if !quiet {
            print(Self.text(summary))
        }
        if !summary.failures.isEmpty { throw ExitCode(ExitStatus.partialFailure) }
    }

    static func text(_ s: AnalysisRun.Summary) -> String {
        var line = "analysed \(s.analysed) of \(s.matched) item\(s.matched == 1 ? "" : "s") (\(s.albums) album\(s.albums == 1 ? "" : "s"))"
        if s.upToDate > 0 { line += ", \(s.upToDate) already up to date" }
        if !s.failures.isEmpty { line += ", \(s.failures.count) failed" }
        if s.seconds > 0 && s.audioSeconds > 0 { line += String(format: "; %.0f× real time", s.audioSeconds / s.seconds) }
        return line
    }
}

extension ProgressLine {
    /// `mlib analyze`'s line: files and ETA.
    func show(_ p: AnalysisRun.Progress) {
        var line = "\(p.filesDone)/\(p.filesTotal) files analysed"
        if let remaining = p.remaining, p.filesDone < p.filesTotal { line += Self.eta(remaining) }
        show(line)
    }
}
