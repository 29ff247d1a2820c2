import Library

/// `list TAG group G1 group G2 …`: the distinct (G…, TAG) rows of a set of items, nested and sorted as
/// MPD prints them. MPD reads the groups from the end of the command: the last `group` is the outermost
/// level, then the one before it, and the listed tag last (`list title group album group artist` lists
/// artists, then each one's albums, then their titles).
///
/// Each level's values are ranked once by their text (byte order; two value numbers with the same text —
/// a value and its fallback's — share a rank), so a row is a few integers, packed into one `UInt64`: rows
/// are collected, sorted and deduplicated as numbers, with no string or array per item (the row-of-arrays
/// version took 1.4 ms at 2,000 songs where mpd takes 0.2).
struct GroupedTagList {
    /// Outermost first: the groups in reverse order of the command, then the listed tag.
    let levels: [MPDTag]

    init(tag: MPDTag, groups: [MPDTag]) { levels = groups.reversed() + [tag] }

    /// Writes the rows of `items` (every item for nil); `window` cuts the outermost level, as MPD's does.
    func write(_ items: [Int32]?, of view: LibrarySnapshot, window: Range<Int>?, to out: inout Response) {
        let slots = levels.map(TagSlots.init)
        // 1. Which values each level uses.
        var used = slots.map { $0.tables(view, false) }
        func eachItem(_ body: (Int32) -> Void) {
            if let items { items.forEach(body) } else { for i in 0..<Int32(view.count) { body(i) } }
        }
        eachItem { i in
            for level in levels.indices { slots[level].forEachValue(i, in: view) { used[level][$0][Int($1)] = true } }
        }
        // 2. Rank them by text.
        var ranks = slots.map { $0.tables(view, UInt32(0)) }
        var texts: [[String]] = []
        for level in levels.indices {
            var named: [(text: String, position: Int, value: Int)] = []
            for position in used[level].indices {
                for value in used[level][position].indices where used[level][position][value] {
                    named.append((slots[level].string(position, UInt32(value), in: view), position, value))
                }
            }
            named.sort { LibraryBrowser.byteOrder($0.text, $1.text) }
            var levelTexts: [String] = []
            for entry in named {
                if levelTexts.last != entry.text { levelTexts.append(entry.text) }
                ranks[level][entry.position][entry.value] = UInt32(levelTexts.count - 1)
            }
            texts.append(levelTexts)
        }
        // 3. Rows as packed ranks, outermost level in the highest bits: numeric order is MPD's order.
        let bits = 64 / levels.count
        guard texts.allSatisfy({ UInt64($0.count) < (UInt64(1) << bits) }) else {
            return writeUnpacked(eachItem, view: view, slots: slots, ranks: ranks, texts: texts, window: window, to: &out)
        }
        var rows: [UInt64] = []
        var choices = [[UInt32]](repeating: [], count: levels.count)
        eachItem { i in
            for level in levels.indices {
                choices[level].removeAll(keepingCapacity: true)
                slots[level].forEachValue(i, in: view) { choices[level].append(ranks[level][$0][Int($1)]) }
            }
            func expand(_ level: Int, _ prefix: UInt64) {
                if level == levels.count { return rows.append(prefix) }
                for rank in choices[level] { expand(level + 1, prefix << bits | UInt64(rank)) }
            }
            expand(0, 0)
        }
        rows.sort()
        var unique: [UInt64] = []
        for row in rows where unique.last != row { unique.append(row) }
        let mask = bits == 64 ? UInt64.max : (UInt64(1) << bits) - 1
        printRows(unique.lazy.map { row in levels.indices.map { Int(row >> (UInt64(bits) * UInt64(levels.count - 1 - $0)) & mask) } },
                  texts: texts, window: window, to: &out)
    }

    /// More distinct values than fit in 64 bits of ranks (four levels of over 65,536 values): rows as arrays.
    private func writeUnpacked(_ eachItem: ((Int32) -> Void) -> Void, view: LibrarySnapshot, slots: [TagSlots], ranks: [[[UInt32]]],
                               texts: [[String]], window: Range<Int>?, to out: inout Response) {
        var rows = Set<[Int]>()
        eachItem { i in
            var prefixes: [[Int]] = [[]]
            for level in levels.indices {
                var choices: [Int] = []
                slots[level].forEachValue(i, in: view) { choices.append(Int(ranks[level][$0][Int($1)])) }
                prefixes = prefixes.flatMap { p in choices.map { p + [$0] } }
            }
            rows.formUnion(prefixes)
        }
        printRows(rows.sorted { $0.lexicographicallyPrecedes($1) }, texts: texts, window: window, to: &out)
    }

    /// Prints sorted, possibly repeated rows of ranks: each level's name when it differs from the row above.
    private func printRows<Rows: Sequence>(_ rows: Rows, texts: [[String]], window: Range<Int>?, to out: inout Response)
    where Rows.Element == [Int] {
        var previous: [Int]? = nil
        var outer = -1
        for row in rows where row != previous {
            if previous?.first != row.first { outer += 1 }
            if let window {
                if outer < window.lowerBound { previous = row; continue }
                if outer >= window.upperBound { break }
            }
            for level in levels.indices where previous == nil || previous![...level] != row[...level] {
                out.field(levels[level].name, texts[level][row[level]])
            }
            previous = row
        }
    }
}
