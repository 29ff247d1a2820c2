/// Clusters of the same recording among fingerprinted items, found as AcoustID finds matches: an inverted
/// index from each fingerprint value to the items holding it gives each item its candidates (items sharing
/// enough values), never all pairs; a candidate is kept when, at the offset most of the shared values
/// agree on (a trim of a few seconds moves it), the aligned fingerprints differ in few bits.
public struct DuplicateFinder: Sendable {
    /// The share of equal bits (over the aligned overlap) from which two fingerprints are one recording.
    /// Re-encodings measure 0.85–0.99 here; different recordings about 0.5 (random bits agree half the time).
    public var minSimilarity: Double
    /// Distinct values shared before a pair is compared at all (fewer when a fingerprint has fewer).
    public var minSharedValues: Int
    /// Aligned values needed to compare (about 8 per second): shorter overlaps say too little.
    public var minOverlap: Int
    /// A value held by more items than this says nothing (silence, a pure tone): it is left out of the index.
    public var maxPostings: Int

    public init(minSimilarity: Double = 0.8, minSharedValues: Int = 3, minOverlap: Int = 40, maxPostings: Int = 200) {
        self.minSimilarity = minSimilarity
        self.minSharedValues = minSharedValues
        self.minOverlap = minOverlap
        self.maxPostings = maxPostings
    }

    public struct Match: Sendable, Hashable {
        public var a: Int64
        public var b: Int64
        public var similarity: Double
        /// How many values `b` starts after `a` (about 0.124 s each).
        public var offset: Int
    }

    /// The pairs of the same recording, each once (a < b).
    public func matches(_ fingerprints: [Int64: [UInt32]]) -> [Match] {
        let ids = fingerprints.keys.sorted()
        var postings: [UInt32: [Int32]] = [:]
        var distinct: [Int] = []
        for (index, id) in ids.enumerated() {
            let values = Set(fingerprints[id]!)
            distinct.append(values.count)
            for value in values { postings[value, default: []].append(Int32(index)) }
        }
        var matches: [Match] = []
        var shared = [Int32](repeating: 0, count: ids.count)
        var touched: [Int32] = []
        for (index, id) in ids.enumerated() {
            // Candidates: later items sharing values with this one (each pair is looked at from its first item).
            for value in Set(fingerprints[id]!) {
                guard let list = postings[value], list.count <= maxPostings else { continue }
                for other in list where other > Int32(index) {
                    if shared[Int(other)] == 0 { touched.append(other) }
                    shared[Int(other)] += 1
                }
            }
            for other in touched {
                defer { shared[Int(other)] = 0 }
                // A steady sound (a held tone) has few distinct values: it needs no more than it has.
                guard shared[Int(other)] >= min(minSharedValues, distinct[index], distinct[Int(other)]) else { continue }
                let otherID = ids[Int(other)]
                if let (similarity, offset) = alignedSimilarity(fingerprints[id]!, fingerprints[otherID]!), similarity >= minSimilarity {
                    matches.append(Match(a: id, b: otherID, similarity: similarity, offset: offset))
                }
            }
            touched.removeAll(keepingCapacity: true)
        }
        return matches
    }

    /// The best share of equal bits over the offsets the equal values point to (the three most frequent).
    func alignedSimilarity(_ a: [UInt32], _ b: [UInt32]) -> (Double, Int)? {
        var positions: [UInt32: [Int]] = [:]
        for (i, value) in a.enumerated() { positions[value, default: []].append(i) }
        var offsets: [Int: Int] = [:]
        for (j, value) in b.enumerated() {
            for i in positions[value] ?? [] { offsets[i - j, default: 0] += 1 }
        }
        var best: (Double, Int)?
        for (offset, _) in offsets.sorted(by: { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }).prefix(3) {
            // a[i] lines up with b[i - offset].
            let lower = max(0, offset), upper = min(a.count, b.count + offset)
            guard upper - lower >= minOverlap else { continue }
            var differing = 0
            for i in lower..<upper { differing += (a[i] ^ b[i - offset]).nonzeroBitCount }
            let similarity = 1 - Double(differing) / Double(32 * (upper - lower))
            if best == nil || similarity > best!.0 { best = (similarity, -offset) }
        }
        return best
    }

    /// The connected groups of matched items (two or more each), largest first.
    public func clusters(_ matches: [Match]) -> [[Int64]] {
        var parent: [Int64: Int64] = [:]
        func root(_ x: Int64) -> Int64 {
            var x = x
            while let p = parent[x], p != x { parent[x] = parent[p] ?? p; x = p }
            return x
        }
        for match in matches {
            parent[match.a] = parent[match.a] ?? match.a
            parent[match.b] = parent[match.b] ?? match.b
            let (ra, rb) = (root(match.a), root(match.b))
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
        var groups: [Int64: [Int64]] = [:]
        for id in parent.keys { groups[root(id), default: []].append(id) }
        return groups.values.map { $0.sorted() }.sorted { $0.count != $1.count ? $0.count > $1.count : $0[0] < $1[0] }
    }
}
