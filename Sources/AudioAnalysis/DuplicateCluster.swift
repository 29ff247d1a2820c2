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

    /// `mlib dupes`: the clusters among the items matching `query` that have a fingerprint, largest first.
    public static func find(in store: any LibraryReader & AnalysisStore, query: MediaQuery,
                            finder: DuplicateFinder = DuplicateFinder()) throws -> [DuplicateCluster] {
        let items = try store.items(query)
        let byID = Dictionary(items.map { ($0.persistentID, $0) }, uniquingKeysWith: { a, _ in a })
        let fingerprints = try store.fingerprints(ids: items.map(\.persistentID))
        let matches = finder.matches(fingerprints)
        var similarity: [Set<Int64>: Double] = [:]
        for match in matches { similarity[[match.a, match.b]] = match.similarity }
        return finder.clusters(matches).map { ids in
            let members = ids.compactMap { byID[$0] }.map { item in
                Member(id: item.persistentID, path: item.path.string, fileType: item[.fileType]?.text, codec: item[.audioCodec]?.text,
                       bitRate: item[.bitRate]?.integer, fileSize: item[.fileSize]?.integer,
                       lossless: isLossless(codec: item[.audioCodec]?.text), similarity: nil)
            }.sorted { a, b in
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
