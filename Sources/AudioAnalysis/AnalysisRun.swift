import Foundation
import MediaIndex
import MediaModel

/// `mlib analyze`: every matching item decoded once (loudness and fingerprint from the same samples), files
/// in parallel on all cores, each album written when its last track is measured: its tracks' results and
/// its gain in one transaction, so a killed run keeps every album it finished and leaves no track looking
/// finished without its album's gain (an unfinished album's tracks are lost to the kill, but they would be
/// decoded again anyway for the gain, whose loudness blocks are not stored). The next run measures only what
/// is missing: items never measured (or by an older analyzer, or whose audio a scan found changed, which
/// cleared them), and the tracks of an album whose gain is missing (the album's gain needs every track's
/// loudness blocks, which are not stored: its tracks are decoded again, once its unmeasured tracks have
/// decoded; a track that fails is tried alone on each run).
public struct AnalysisRun: Sendable {
    /// The analyzer's version, stored with each result: raise it when a change makes old results wrong.
    public static let version = 1

    public var truePeak = false
    /// Files decoded at once (default: the machine's cores).
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Measure again what is already measured.
    public var force = false
    /// Loudness and gains only, no fingerprint: the stored fingerprint and analyzer version are left as
    /// they are (an item never fully analysed stays to be fingerprinted by a later run).
    public var loudnessOnly = false

    public init(truePeak: Bool = false, jobs: Int? = nil, force: Bool = false, loudnessOnly: Bool = false) {
        self.truePeak = truePeak
        self.jobs = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        self.force = force
        self.loudnessOnly = loudnessOnly
    }

    /// Where a run stands, for a progress line.
    public struct Progress: Sendable {
        public var filesDone: Int
        public var filesTotal: Int
        /// Seconds of audio measured and to measure (from the index's durations), for an ETA.
        public var audioDone: Double
        public var audioTotal: Double
        public var elapsed: Double
        /// Seconds left at the pace so far, once there is one.
        public var remaining: Double? {
            guard audioDone > 0, elapsed > 0 else { return nil }
            return max(0, audioTotal - audioDone) * elapsed / audioDone
        }
    }

    public struct Failure: Sendable, Codable, Hashable {
        public var path: String
        public var message: String
    }

    public struct Summary: Sendable, Codable {
        public var matched = 0
        /// Already measured by this analyzer, with their album's gain: left alone.
        public var upToDate = 0
        public var analysed = 0
        public var albums = 0
        public var failures: [Failure] = []
        /// Seconds of audio decoded, and of wall-clock time spent.
        public var audioSeconds = 0.0
        public var seconds = 0.0
    }

    /// A set of tracks measured together for the album gain; items with no album tag are albums of one.
    struct Album {
        var items: [MediaItem]
    }

    public func run(_ store: any LibraryReader & AnalysisStore, query: MediaQuery,
                    progress: @escaping @Sendable (Progress) -> Void = { _ in }) async throws -> Summary {
        let start = Date()
        let items = try store.items(query)
        var summary = Summary()
        summary.matched = items.count
        let albums = Self.albums(items).filter { force || needsWork($0) }
        // Each album in two steps: first its tracks that need their own measurement, then, only when all of
        // them decoded, its tracks already measured (decoded again for the album's gain, whose loudness
        // blocks are not stored). An album with a track that does not decode is then one decode per run,
        // not the whole album every run.
        let steps = albums.map { album -> (own: [MediaItem], forGain: [MediaItem]) in
            let own = force ? album.items : album.items.filter(needsOwnMeasurement)
            return (own, album.items.filter { item in !own.contains { $0.persistentID == item.persistentID } })
        }
        var queue = steps.flatMap { $0.own.isEmpty ? $0.forGain : $0.own }[...]
        let audioTotal = albums.flatMap(\.items).reduce(0) { $0 + ($1[.playbackDuration]?.real ?? 0) }
        var state = Progress(filesDone: 0, filesTotal: albums.reduce(0) { $0 + $1.items.count }, audioDone: 0, audioTotal: audioTotal, elapsed: 0)
        progress(state)

        // Which album each item belongs to, and what each album still waits for.
        var albumOf: [Int64: Int] = [:]
        var waiting: [Int] = steps.map { $0.own.isEmpty ? $0.forGain.count : $0.own.count }
        var secondStepQueued: [Bool] = steps.map { $0.own.isEmpty }
        // Each album's results so far, written with its gain once it is complete (or without, once it failed).
        var measured: [[(result: ItemAnalysis, meter: LoudnessMeter)]] = albums.map { _ in [] }
        var failedAlbums = Set<Int>()
        var decoded = 0
        for (index, album) in albums.enumerated() { for item in album.items { albumOf[item.persistentID] = index } }

        let truePeak = self.truePeak, loudnessOnly = self.loudnessOnly
        try await withThrowingTaskGroup(of: (MediaItem, Result<(TrackAnalysis, LoudnessMeter), AnalysisError>).self) { group in
            func startNext() -> Bool {
                guard let item = queue.popFirst() else { return false }
                group.addTask {
                    do throws(AnalysisError) { return (item, .success(try TrackAnalyzer.analyze(path: item.path, truePeak: truePeak,
                                                                                            fingerprint: !loudnessOnly))) }
                    catch { return (item, .failure(error)) }
                }
                return true
            }
            var running = 0
            for _ in 0..<jobs where startNext() { running += 1 }
            while running > 0, let (item, result) = try await group.next() {
                running -= 1
                try Task.checkCancellation()
                decoded += 1
                let albumIndex = albumOf[item.persistentID]!
                switch result {
                case .success(let (analysis, meter)):
                    let result = ItemAnalysis(id: item.persistentID, loudness: analysis.loudness, loudnessRange: analysis.loudnessRange,
                                              trackGain: analysis.trackGain, trackPeak: analysis.peak,
                                              fingerprint: loudnessOnly ? nil : analysis.fingerprint, version: loudnessOnly ? nil : Self.version)
                    summary.analysed += 1
                    summary.audioSeconds += analysis.duration
                    measured[albumIndex].append((result, meter))
                case .failure(let error):
                    summary.failures.append(Failure(path: item.path.string, message: error.description))
                    failedAlbums.insert(albumIndex)
                }
                waiting[albumIndex] -= 1
                if waiting[albumIndex] == 0 && !secondStepQueued[albumIndex] {
                    // The album's own measurements are done: its other tracks follow for the album's gain, or,
                    // when one failed, are left (the gain cannot be made; they keep their measurements).
                    secondStepQueued[albumIndex] = true
                    let rest = steps[albumIndex].forGain
                    if failedAlbums.contains(albumIndex) || rest.isEmpty {
                        state.filesTotal -= rest.count
                        state.audioTotal -= rest.reduce(0) { $0 + ($1[.playbackDuration]?.real ?? 0) }
                    } else {
                        waiting[albumIndex] = rest.count
                        queue.append(contentsOf: rest)
                    }
                }
                if waiting[albumIndex] == 0 {
                    // The album's last track: its gain over all its tracks' blocks, written with their results,
                    // then its meters go. A failed album's measured tracks are written without a gain.
                    let tracks = measured[albumIndex]
                    var album: AlbumGain?
                    if !failedAlbums.contains(albumIndex) {
                        let loudness = LoudnessMeter.integratedLoudness(of: tracks.map(\.meter))
                        album = AlbumGain(ids: albums[albumIndex].items.map(\.persistentID), gain: TrackAnalysis.gain(forLoudness: loudness),
                                          peak: tracks.map(\.result.trackPeak).max())
                        summary.albums += 1
                    }
                    try store.storeAnalysis(tracks.map(\.result), album: album)
                    measured[albumIndex] = []
                }
                while running < jobs, startNext() { running += 1 }
                state.filesDone += 1
                state.audioDone += item[.playbackDuration]?.real ?? 0
                state.elapsed = Date().timeIntervalSince(start)
                progress(state)
            }
        }
        summary.upToDate = items.count - decoded
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    /// Whether an album has anything to measure: a track that needs its own measurement
    /// (`needsOwnMeasurement`), or no album gain on a measured track that is not silent.
    func needsWork(_ album: Album) -> Bool {
        album.items.contains { item in needsOwnMeasurement(item) || (item[.albumGain] == nil && item[.trackGain] != nil) }
    }

    /// A track not measured by this analyzer (with `loudnessOnly`: a track with no loudness).
    func needsOwnMeasurement(_ item: MediaItem) -> Bool {
        if loudnessOnly { return item[.loudness] == nil }
        guard let version = item[.analysisVersion]?.integer, version >= Self.version else { return true }
        return false
    }

    /// The matching items grouped into albums, in the order first met: by MusicBrainz album ID where
    /// there is one, else by album artist (or artist) and album title; an item with no album title is an
    /// album of its own (its album gain is its track gain).
    static func albums(_ items: [MediaItem]) -> [Album] {
        var order: [String] = []
        var groups: [String: [MediaItem]] = [:]
        for item in items {
            let key: String
            if let id = item[.musicBrainzAlbumID]?.text, !id.isEmpty {
                key = "mb:" + id
            } else if let album = item.albumTitle, !album.isEmpty {
                key = "tag:" + (item[.albumArtist]?.text ?? item.artist ?? "") + "\u{0}" + album
            } else {
                key = "item:\(item.persistentID)"
            }
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(item)
        }
        return order.map { Album(items: groups[$0]!) }
    }
}
