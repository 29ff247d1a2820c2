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

    /// The pairs of the same recording, each once (a < b), among fingerprints all in memory.
    public func matches(_ fingerprints: [Int64: [UInt32]]) -> [Match] {
        var index = Index(indexedValues: indexedValues)
        for id in fingerprints.keys.sorted() { index.add(id: id, fingerprint: fingerprints[id]!) }
        return try! matches(&index) { ids in ids.reduce(into: [:]) { $0[$1] = fingerprints[$1] } }   // (fetching throws nothing)
    }

    /// The pairs of the same recording among the fingerprints `index` holds (a < b), the whole
    /// fingerprints of candidate pairs fetched on demand through `fetch`, a batch at a time: memory holds
    /// the index and one batch, never every fingerprint.
    /// (A batch of 1,000 pairs holds up to 2,000 fingerprints, ~8 MB, twice while read: 4,000 added 44 MB
    /// to the peak of 100,000.)
    public func matches(_ index: inout Index, batchSize: Int = 1_000,
                        fetch: ([Int64]) throws -> [Int64: [UInt32]]) throws -> [Match] {
        let candidates = index.candidatePairs(maxPostings: maxPostings, minSharedValues: minSharedValues)
        var matches: [Match] = []
        var start = 0
        while start < candidates.count {
            let batch = candidates[start..<min(start + batchSize, candidates.count)]
            start += batchSize
            var wanted = Set<Int64>()
            for (a, b) in batch { wanted.insert(a); wanted.insert(b) }
            let fingerprints = try fetch(Array(wanted))
            for (a, b) in batch {
                guard let first = fingerprints[a], let second = fingerprints[b] else { continue }
                if let (similarity, offset) = alignedSimilarity(first, second), similarity >= minSimilarity {
                    matches.append(Match(a: a, b: b, similarity: similarity, offset: offset))
                }
            }
        }
        return matches.sorted { ($0.a, $0.b) < ($1.a, $1.b) }
    }

    /// The inverted index of fingerprint values: the distinct values of each fingerprint's first
    /// `indexedValues` (about 15 s; a trim of a few seconds still leaves most of them in common), as one
    /// array of (value, item) pairs sorted when asked for candidates: 8 bytes per entry and no table of
    /// lists, so 100,000 fingerprints index in ~100 MB; the fingerprints themselves are not kept.
    public struct Index: Sendable {
        public let indexedValues: Int
        private(set) var ids: [Int64] = []
        private var entries: [UInt64] = []
        /// Distinct indexed values of each item (a steady sound has few).
        private var distinct: [Int32] = []

        public init(indexedValues: Int = 120) { self.indexedValues = indexedValues }

        public var count: Int { ids.count }

        /// Room for `items` fingerprints at once: the entries grown by doubling held up to twice the index
        /// while they were copied (see dupes-bench.sh).
        public mutating func reserveCapacity(_ items: Int) {
            ids.reserveCapacity(items)
            distinct.reserveCapacity(items)
            entries.reserveCapacity(items * indexedValues)
        }

        public mutating func add(id: Int64, fingerprint: [UInt32]) {
            let item = UInt64(ids.count)
            ids.append(id)
            let values = fingerprint.prefix(indexedValues).sorted()
            var previous: UInt32?
            var count: Int32 = 0
            for value in values where value != previous {
                previous = value
                entries.append(UInt64(value) << 32 | item)
                count += 1
            }
            distinct.append(count)
        }

        /// The pairs of items (by id, a < b) sharing at least `minSharedValues` distinct
        /// values (or all of the fewer one of them has), counting only values held by at most `maxPostings`
        /// items (silence, a pure tone: shared by too many to say anything).
        mutating func candidatePairs(maxPostings: Int, minSharedValues: Int) -> [(Int64, Int64)] {
            Self.sortInPlace(&entries)
            let sorted = entries
            // Distinct values each pair of items shares (key: first index << 32 | second index).
            var shared: [UInt64: Int32] = [:]
            var start = 0
            while start < sorted.count {
                let value = sorted[start] >> 32
                var end = start + 1
                while end < sorted.count && sorted[end] >> 32 == value { end += 1 }
                if end - start > 1 && end - start <= maxPostings {
                    for i in start..<end - 1 {
                        for j in i + 1..<end { shared[(sorted[i] & 0xFFFF_FFFF) << 32 | (sorted[j] & 0xFFFF_FFFF), default: 0] += 1 }
                    }
                }
                start = end
            }
            var pairs: [(Int64, Int64)] = []
            for (pair, count) in shared {
                let (first, second) = (Int(pair >> 32), Int(pair & 0xFFFF_FFFF))
                // A steady sound (a held tone) has few distinct values: it needs no more than it has.
                guard Int(count) >= min(minSharedValues, Int(distinct[first]), Int(distinct[second])) else { continue }
                pairs.append((min(ids[first], ids[second]), max(ids[first], ids[second])))
            }
            return pairs.sorted { $0 < $1 }
        }

        /// Sorts without a copy of the whole: the standard library's sort takes a buffer of half the array
        /// (48 MB more for 100,000 fingerprints), so the entries are first spread in place into 256 buckets
        /// by their top byte (American flag sort), and each bucket, 1/256 of the whole, is sorted alone.
        static func sortInPlace(_ entries: inout [UInt64]) {
            entries.withUnsafeMutableBufferPointer { buffer in
                var bounds = [Int](repeating: 0, count: 257)
                for entry in buffer { bounds[Int(entry >> 56) + 1] += 1 }
                for bucket in 0..<256 { bounds[bucket + 1] += bounds[bucket] }
                var next = bounds
                for bucket in 0..<256 {
                    while next[bucket] < bounds[bucket + 1] {
                        // Carry the entry at this bucket's next free place to its own bucket, and the one
                        // found there onwards, until one belongs here.
                        var entry = buffer[next[bucket]]
                        var home = Int(entry >> 56)
                        while home != bucket {
                            swap(&entry, &buffer[next[home]])
                            next[home] += 1
                            home = Int(entry >> 56)
                        }
                        buffer[next[bucket]] = entry
                        next[bucket] += 1
                    }
                }
                for bucket in 0..<256 { buffer[bounds[bucket]..<bounds[bucket + 1]].sort() }
            }
        }
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
