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
    /// Values from the start of each fingerprint that go into the index.
    public var indexedValues: Int

    public init(minSimilarity: Double = 0.8, minSharedValues: Int = 3, minOverlap: Int = 40, maxPostings: Int = 200,
                indexedValues: Int = 120) {
        self.indexedValues = indexedValues
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
    ///
    /// The index holds the distinct values of each fingerprint's first `indexedValues` (about 15 s; a trim
    /// of a few seconds still leaves most of them in common) as one sorted array of (value, item) pairs:
    /// 8 bytes per entry, no table of lists, so 100,000 fingerprints index in ~100 MB. Items sharing a
    /// value are counted per pair; only pairs sharing enough values are compared, over their whole
    /// fingerprints.
    public func matches(_ fingerprints: [Int64: [UInt32]]) -> [Match] {
        let ids = fingerprints.keys.sorted()
        var entries: [UInt64] = []
        entries.reserveCapacity(ids.count * min(indexedValues, 128))
        var distinct = [Int](repeating: 0, count: ids.count)
        for (index, id) in ids.enumerated() {
            let values = fingerprints[id]!.prefix(indexedValues).sorted()
            var previous: UInt32?
            for value in values where value != previous {
                previous = value
                entries.append(UInt64(value) << 32 | UInt64(index))
                distinct[index] += 1
            }
        }
        entries.sort()
        // Distinct values each pair of items shares (key: first index << 32 | second index).
        var shared: [UInt64: Int32] = [:]
        var start = 0
        while start < entries.count {
            let value = entries[start] >> 32
            var end = start + 1
            while end < entries.count && entries[end] >> 32 == value { end += 1 }
            if end - start > 1 && end - start <= maxPostings {
                for i in start..<end - 1 {
                    for j in i + 1..<end { shared[(entries[i] & 0xFFFF_FFFF) << 32 | (entries[j] & 0xFFFF_FFFF), default: 0] += 1 }
                }
            }
            start = end
        }
        var matches: [Match] = []
        for (pair, count) in shared {
            let (first, second) = (Int(pair >> 32), Int(pair & 0xFFFF_FFFF))
            // A steady sound (a held tone) has few distinct values: it needs no more than it has.
            guard Int(count) >= min(minSharedValues, distinct[first], distinct[second]) else { continue }
            let (a, b) = (ids[first], ids[second])
            if let (similarity, offset) = alignedSimilarity(fingerprints[a]!, fingerprints[b]!), similarity >= minSimilarity {
                matches.append(Match(a: a, b: b, similarity: similarity, offset: offset))
            }
        }
        return matches.sorted { ($0.a, $0.b) < ($1.a, $1.b) }
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
