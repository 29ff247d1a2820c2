import Synchronization

/// A container's children in their default order, made only as far as a page needs them: All Tracks at
/// 20,000 items is a list of item numbers until a page of 50 is written, so a Browse of one page costs that
/// page, not the whole container (a walk of it in pages made every child once per page: most of a Browse's
/// CPU at 20k). Sorting (`SortCriteria`) and searching still take `all`.
struct TreeChildren {
    /// How many child objects were made since the start (a count of the work a Browse did, for tests).
    static let made = Atomic<Int>(0)

    enum Segment {
        /// Objects made already (the few fixed containers).
        case objects([TreeObject])
        /// View items listed in container `container`, each named by its id in `ids` (the view's).
        case items([Int32], container: String, ids: [Int64])
        /// `count` objects, the nth made by `make(n)`.
        case made(count: Int, make: (Int) -> TreeObject)

        var count: Int {
            switch self {
            case .objects(let objects): objects.count
            case .items(let items, _, _): items.count
            case .made(let count, _): count
            }
        }

        func object(_ n: Int) -> TreeObject {
            TreeChildren.made.add(1, ordering: .relaxed)
            return switch self {
            case .objects(let objects): objects[n]
            case .items(let items, let container, let ids):
                .item(parentID: container, persistentID: ids[Int(items[n])], item: items[n])
            case .made(_, let make): make(n)
            }
        }
    }

    let segments: [Segment]
    let count: Int

    init(_ segments: [Segment]) {
        self.segments = segments
        count = segments.reduce(0) { $0 + $1.count }
    }

    init(_ objects: [TreeObject]) { self.init([.objects(objects)]) }

    /// The children at `range` (clamped to the count), made now.
    func objects(_ range: Range<Int>) -> [TreeObject] {
        var out: [TreeObject] = []
        out.reserveCapacity(max(0, min(range.upperBound, count) - range.lowerBound))
        var offset = 0
        for segment in segments {
            // This segment's part of the range (none when the range starts past it).
            let lower = max(range.lowerBound, offset), upper = min(range.upperBound, offset + segment.count)
            if lower < upper { for n in lower..<upper { out.append(segment.object(n - offset)) } }
            offset += segment.count
            if offset >= range.upperBound { break }
        }
        return out
    }

    /// Every child, made now (for sorting and searching).
    var all: [TreeObject] { objects(0..<count) }

    /// Whether view item `item` is listed here (no object made for a listing of items).
    func lists(item: Int32) -> Bool {
        segments.contains { segment in
            switch segment {
            case .items(let items, _, _): return items.contains(item)
            case .objects(let objects):
                return objects.contains { if case .item(_, _, let listed) = $0 { listed == item } else { false } }
            case .made(let count, let make):
                return (0..<count).contains { if case .item(_, _, let listed) = make($0) { listed == item } else { false } }
            }
        }
    }
}
