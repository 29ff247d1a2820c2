import ArgumentParser
import AudioAnalysis
import Foundation
import Library
import MediaIndex
import MediaModel
import TagWriting

/// `mlib analyze [QUERY]`: loudness (EBU R128, ReplayGain 2.0 gains) and fingerprints of the matching
/// items, in one decode pass per file, into the index (`AudioAnalysis.AnalysisRun` does the work).
struct Analyze: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Measure loudness (EBU R128, ReplayGain 2.0) and acoustic fingerprints of the items matching a query.",
        discussion: """
            Each file is decoded once; the same samples feed an EBU R128 meter (integrated loudness, loudness \
            range, sample peak, gated and weighted as libebur128 does; with --true-peak, libebur128's 4× interpolator, \
            computed only where a block could beat the peak so far) \
            and Chromaprint (the first 120 s, as fpcalc). Files are measured in parallel on all cores; each \
            album's gain is measured over all its tracks together (their gating blocks taken together, as \
            libebur128's loudness of several inputs, not the mean of the tracks' gains). Each album is stored \
            when its last track is measured, its tracks and gain in one write: an interrupted run keeps every \
            album it finished, and the next run measures only what is missing \
            or whose audio a scan found changed (a retag or a move keeps the results). A progress line with an \
            ETA is shown when standard error is a terminal. The values are the properties loudness (LUFS), \
            loudnessRange (LU), trackGain and albumGain (dB, to -18 LUFS), trackPeak and albumPeak (linear), \
            and analysisVersion: `mlib ls 'loudness > -9'`, `mlib ls --sort loudness`. `mlib dupes` uses the \
            fingerprints. With --loudness-only Chromaprint is not run: the loudness values and gains are \
            measured (items without a loudness, or all with --force), fingerprints already stored are kept, and \
            items never fingerprinted are fingerprinted by the next run without it.

            With --write, the matching items' values are then written into their files' tags, as loudgain \
            and rsgain write them: REPLAYGAIN_TRACK_GAIN and REPLAYGAIN_ALBUM_GAIN ("-6.52 dB"), \
            REPLAYGAIN_TRACK_PEAK and REPLAYGAIN_ALBUM_PEAK ("0.912345", sample peaks unless --true-peak) and \
            REPLAYGAIN_REFERENCE_LOUDNESS ("-18.00 LUFS"), as ID3v2 TXXX frames, Vorbis comments, MP4 \
            ----:com.apple.iTunes: items, APE items or ASF attributes; in Opus files R128_TRACK_GAIN and \
            R128_ALBUM_GAIN instead (RFC 7845: Q7.8 integers, 256 to the dB, relative to -23 LUFS), and no \
            REPLAYGAIN_* field. Files are written as mlib tag writes them (each wholly old or wholly new) and \
            read again into the index, whose analysis a retag keeps. A file already holding these values is \
            not written; a format mlib cannot write tags to is named on standard error and the rest are \
            written; so is an item with no gain to write (silence, or audio too short to measure). --dry-run \
            shows the changes without writing them.

            Examples:
              mlib analyze
              mlib analyze artist:Björk --true-peak
              mlib analyze --json
              mlib analyze --loudness-only
              mlib analyze album:Homogenic --write --dry-run

            \(ExitStatus.help(one: "some files could not be decoded (\"this FFmpeg cannot decode ac-4\": mlib ls 'decodable == NO' lists them) or their tags written (each is named on standard error)"))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .long, help: "Measure true peaks (4× oversampled) instead of sample peaks.")
    var truePeak = false

    @Flag(name: .long, help: "Measure again items already measured.")
    var force = false

    @Flag(name: .long, help: "Measure loudness and gains only, without fingerprints (faster; stored fingerprints are kept).")
    var loudnessOnly = false

    @Flag(name: .long, help: "Write the ReplayGain tags (R128_* in Opus files) into the matching items' files.")
    var write = false

    @Flag(name: .long, help: "With --write: show the tag changes, write nothing to the files.")
    var dryRun = false

    @Option(name: [.customShort("j", allowingJoined: true), .long], help: "Files decoded at once (default: the number of cores; -j4 or -j 4).")
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
        if dryRun && !write { throw ValidationError("--dry-run shows what --write would write: give --write too") }
    }

    func run() async throws {
        let filter = query.isEmpty ? MediaModel.Predicate.all : try QueryInput.predicate(query)
        let library = try libraryOptions.library()
        let display = !quiet && !json && isatty(STDERR_FILENO) == 1 ? ProgressLine() : nil
        // Another host's item is its file: measuring the file at that path here would store its values on it.
        try library.requireThisHost(matching: MediaQuery(filter: filter), doing: write ? "analyze --write" : "analyze")
        let run = AnalysisRun(truePeak: truePeak, jobs: jobs, force: force, loudnessOnly: loudnessOnly)
        let summary = try await run.run(library.store, query: MediaQuery(filter: filter)) { display?.show($0) }
        display?.clear()
        for failure in summary.failures { printError("\(failure.path): \(failure.message)") }
        var reports: [TagFileReport] = []
        if write {
            if !json && !quiet { print(Self.text(summary)) }
            reports = try await writeTags(library, filter: filter)
        }
        if json && write {
            try JSONOutput.write(WriteSummary(analysis: summary, tags: reports.map(WriteSummary.File.init)))
        } else if json {
            try JSONOutput.write(summary)
        } else if !quiet && !write {
            print(Self.text(summary))
        }
        if !summary.failures.isEmpty || reports.contains(where: { $0.outcome == .failed }) { throw ExitCode(ExitStatus.partialFailure) }
    }

    /// `--write`: the matching items' stored values into their files (the plan only with --dry-run), then
    /// the written files read again into the index. The reports, in path order.
    func writeTags(_ library: Library, filter: MediaModel.Predicate) async throws -> [TagFileReport] {
        let items = try library.store.items(MediaQuery(filter: filter)).sorted { $0.path.string < $1.path.string }
        let jobs = items.compactMap { item in ReplayGainFields.edit(for: item).map { (file: item.path, edit: $0) } }
        if !quiet && !json {
            // An item analysed without a gain (silence, or audio too short to measure) has nothing to write: said,
            // so that a file left without REPLAYGAIN_* tags is not taken for a failure to write them.
            for item in items where ReplayGainFields.edit(for: item) == nil && item[.analysisVersion] != nil {
                printError("\(item.path.string): no gain measured (silence, or too short to measure): nothing to write")
            }
        }
        let writer = TagWriter()
        let reports = dryRun ? jobs.map { writer.edit($0.file, $0.edit, write: false) } : try await library.writeTags(jobs, writer: writer)
        if json || quiet {
            for report in reports where report.outcome == .failed { printError(report.error ?? report.path) }
        } else if dryRun {
            TagReportText.show(reports, json: false)
        } else {
            TagReportText.show(reports, json: false, failures: false)
            TagReportText.summary(reports)
        }
        return reports
    }

    /// `--json --write`: the analysis summary's keys and `tags`, each file's outcome.
    struct WriteSummary: Encodable {
        struct File: Encodable {
            var path: String
            var outcome: String
            var error: String?
            init(_ report: TagFileReport) {
                path = report.path
                outcome = report.outcome.rawValue
                error = report.error
            }
        }
        var analysis: AnalysisRun.Summary
        var tags: [File]

        enum Keys: String, CodingKey { case tags }
        func encode(to encoder: any Encoder) throws {
            try analysis.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(tags, forKey: .tags)
        }
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
