import MediaIndex
import MediaModel

/// One recording found in several files, best copy first.
public struct DuplicateCluster: Sendable, Codable {
    public struct Member: Sendable, Codable {
        public var id: Int64
        public var path: String
        public var fileType: String?
        public var codec: String?
        public var bitRate: Int64?
        public var fileSize: Int64?
        public var lossless: Bool
        /// Its similarity to the best copy (1 for the best copy itself), when they were compared directly.
        public var similarity: Double?
    }
    public var members: [Member]

    /// Codecs whose decoded audio is the source's, bit for bit: ranked above any lossy copy.
    static let losslessCodecs: Set<String> = ["flac", "alac", "wavpack", "ape", "tta", "mlp", "truehd", "wmalossless", "shorten"]

    static func isLossless(codec: String?) -> Bool {
        guard let codec else { return false }
        return losslessCodecs.contains(codec) || codec.hasPrefix("pcm_")
    }

    /// Fingerprints read from the store at once while indexing (about 4 KB each).
    static let page = 2_000

    /// `mlib dupes`: the clusters among the items matching `query` that have a fingerprint, largest first.
    /// Memory is bounded by the index, not the library: the matching ids are read, their fingerprints a
    /// page at a time (only each one's indexed start is kept), the candidate pairs' whole fingerprints a
    /// batch at a time, and the items only of the clusters found.
    public static func find(in store: any LibraryReader & AnalysisStore, query: MediaQuery,
                            finder: DuplicateFinder = DuplicateFinder()) throws -> [DuplicateCluster] {
        let ids = try store.itemIDs(query)
        var index = DuplicateFinder.Index(indexedValues: finder.indexedValues)
        index.reserveCapacity(ids.count)
        for start in stride(from: 0, to: ids.count, by: page) {
            let pageIDs = Array(ids[start..<min(start + page, ids.count)])
            let fingerprints = try store.fingerprints(ids: pageIDs)
            for id in pageIDs { if let fingerprint = fingerprints[id] { index.add(id: id, fingerprint: fingerprint) } }
        }
        let matches = try finder.matches(&index) { try store.fingerprints(ids: $0) }
        index = DuplicateFinder.Index()   // its memory goes before the members' items are read
        var similarity: [Set<Int64>: Double] = [:]
        for match in matches { similarity[[match.a, match.b]] = match.similarity }
        let clusters = finder.clusters(matches)
        // Each member's few fields, read a page of items at a time (whole items of every member at once
        // were the peak: 19,000 of them added ~55 MB in dupes-bench.sh's library of 100,000).
        var memberOf: [Int64: Member] = [:]
        let memberIDs = clusters.flatMap { $0 }
        for start in stride(from: 0, to: memberIDs.count, by: page) {
            for item in try store.items(ids: Array(memberIDs[start..<min(start + page, memberIDs.count)])) {
                memberOf[item.persistentID] = Member(
                    id: item.persistentID, path: item.path.string, fileType: item[.fileType]?.text, codec: item[.audioCodec]?.text,
                    bitRate: item[.bitRate]?.integer, fileSize: item[.fileSize]?.integer,
                    lossless: isLossless(codec: item[.audioCodec]?.text), similarity: nil)
            }
        }
        return clusters.map { ids in
            let members = ids.compactMap { memberOf[$0] }.sorted { a, b in
                if a.lossless != b.lossless { return a.lossless }
                if (a.bitRate ?? 0) != (b.bitRate ?? 0) { return (a.bitRate ?? 0) > (b.bitRate ?? 0) }
                return a.path < b.path
            }
            var cluster = DuplicateCluster(members: members)
            if let best = members.first?.id {
                for i in cluster.members.indices {
                    let id = cluster.members[i].id
                    cluster.members[i].similarity = id == best ? 1 : similarity[[best, id]]
                }
            }
            return cluster
        }
    }
}
