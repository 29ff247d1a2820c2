import Foundation
import MediaIndex
import MediaModel

/// Finds the library's item for another program's track, in this order (issue 40):
/// 1. its path, after the `--map FROM=TO` prefix rewrites (the longest FROM that matches; a relative
///    path, as MPD's URIs, is tried under each of the library's roots); also in Unicode's composed form
///    (macOS writes file names decomposed);
/// 2. its MusicBrainz recording id, when exactly one item has it;
/// 3. artist + album + title, folded as the query language folds them (`TextFolding`), with a duration
///    within ±2 s when both sides know one; without an album (a listen may have none), artist + title. Two
///    or more candidates are no match (reported as ambiguous): an import never guesses.
/// Built once per import from one pass over the items (bounded by the library, not by the file).
public struct UserDataMatcher: Sendable {
    public enum Method: String, Sendable, Codable, CaseIterable { case path, recordingID, tags }
    public enum Outcome: Sendable, Hashable {
        case matched(Int64, Method)
        case unmatched
        case ambiguous(Int)
    }

    /// A path prefix rewrite (`--map FROM=TO`).
    public struct PathMap: Sendable, Hashable {
        public var from: String
        public var to: String
        public init(from: String, to: String) { self.from = from; self.to = to }

        /// `FROM=TO`; nil when there is no `=` or FROM is empty.
        public init?(argument: String) {
            guard let eq = argument.firstIndex(of: "="), eq != argument.startIndex else { return nil }
            from = String(argument[..<eq])
            to = String(argument[argument.index(after: eq)...])
        }
    }

    private struct Candidate: Sendable { var id: Int64; var album: String; var duration: Double? }

    private var byPath: [String: Int64] = [:]
    private var byComposedPath: [String: Int64] = [:]
    private var byRecording: [String: [Int64]] = [:]
    private var byArtistTitle: [String: [Candidate]] = [:]
    private let roots: [String]
    private let maps: [PathMap]

    /// Reads every item's path, recording id, artist, album, title and duration from `store`.
    public init(store: any LibraryStore, maps: [PathMap]) throws {
        self.maps = maps.sorted { $0.from.utf8.count > $1.from.utf8.count }
        roots = try store.roots().map(\.string)
        var byPath: [String: Int64] = [:], byComposedPath: [String: Int64] = [:]
        var byRecording: [String: [Int64]] = [:], byArtistTitle: [String: [Candidate]] = [:]
        try store.forEachItem(MediaQuery()) { item in
            let path = item.path.string
            byPath[path] = item.id
            // Only a path with non-ASCII bytes can have another Unicode form (Foundation's normalization
            // is the dearest step here, so ASCII paths skip it).
            if path.utf8.contains(where: { $0 >= 0x80 }) {
                let composed = path.precomposedStringWithCanonicalMapping
                if composed != path { byComposedPath[composed] = item.id }
            }
            if let mbid = item[.musicBrainzTrackID]?.text, !mbid.isEmpty { byRecording[mbid.lowercased(), default: []].append(item.id) }
            if let artist = item.artist ?? item[.albumArtist]?.text, let title = item.title {
                byArtistTitle[Self.key(artist, title), default: []].append(
                    Candidate(id: item.id, album: TextFolding.folded(item.albumTitle ?? ""), duration: item[.playbackDuration]?.real))
            }
        }
        self.byPath = byPath
        self.byComposedPath = byComposedPath
        self.byRecording = byRecording
        self.byArtistTitle = byArtistTitle
    }

    /// The path `path` names in this library after the `--map` rewrites (the longest prefix that matches).
    public func mapped(_ path: String) -> String {
        for map in maps where path.hasPrefix(map.from) { return map.to + path.dropFirst(map.from.count) }
        return path
    }

    public func match(_ track: ImportedTrack) -> Outcome {
        if let path = track.path, !path.isEmpty {
            let mapped = mapped(path)
            let tries = mapped.hasPrefix("/") ? [mapped] : roots.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + mapped } + [mapped]
            for candidate in tries {
                if let id = byPath[candidate] { return .matched(id, .path) }
                guard candidate.utf8.contains(where: { $0 >= 0x80 }) else { continue }
                let composed = candidate.precomposedStringWithCanonicalMapping
                if let id = byPath[composed] ?? byComposedPath[composed] { return .matched(id, .path) }
            }
        }
        if let mbid = track.recordingID?.lowercased(), !mbid.isEmpty, let ids = byRecording[mbid] {
            if ids.count == 1 { return .matched(ids[0], .recordingID) }
        }
        guard let artist = track.artist, let title = track.title, !artist.isEmpty, !title.isEmpty,
              let candidates = byArtistTitle[Self.key(artist, title)] else { return .unmatched }
        let album = track.album.map(TextFolding.folded) ?? ""
        let fitting = candidates.filter { candidate in
            if !album.isEmpty && candidate.album != album { return false }
            if let theirs = track.duration, let ours = candidate.duration, abs(theirs - ours) > 2 { return false }
            return true
        }
        switch fitting.count {
        case 0: return .unmatched
        case 1: return .matched(fitting[0].id, .tags)
        default: return .ambiguous(fitting.count)
        }
    }

    private static func key(_ artist: String, _ title: String) -> String {
        TextFolding.folded(artist) + "\u{1F}" + TextFolding.folded(title)
    }
}
