import MediaModel

/// Play orders: permutations of queue indices.
enum ShuffleOrder {
    /// A real permutation of `indices` (each exactly once), with `first` (if given) moved to the front
    /// so the item playing when shuffle is switched on keeps playing.
    static func songs(_ indices: [Int], first: Int?, using rng: inout SeededGenerator) -> [Int] {
        var rest = indices.filter { $0 != first }
        rest.shuffle(using: &rng)
        return (first.map { [$0] } ?? []) + rest
    }

    /// Albums in random order, each album's tracks together in disc/track order (queue order breaks ties).
    /// Items with no album title are each an album of their own. The album of `first` comes first.
    static func albums(_ items: [MediaItem], first: Int?, using rng: inout SeededGenerator) -> [Int] {
        var groups: [[Int]] = []
        var groupOfKey: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            guard let album = item.albumTitle, !album.isEmpty else { groups.append([index]); continue }
            let key = album + "\u{1F}" + (item.albumArtist ?? item.artist ?? "")
            if let g = groupOfKey[key] { groups[g].append(index) } else {
                groupOfKey[key] = groups.count
                groups.append([index])
            }
        }
        groups = groups.map { group in
            group.sorted { a, b in
                let ka = (items[a].discNumber, items[a].albumTrackNumber, a)
                let kb = (items[b].discNumber, items[b].albumTrackNumber, b)
                return ka < kb
            }
        }
        let firstGroup = first.flatMap { f in groups.firstIndex { $0.contains(f) } }
        var rest = groups.indices.filter { $0 != firstGroup }
        rest.shuffle(using: &rng)
        return ((firstGroup.map { [$0] } ?? []) + rest).flatMap { groups[$0] }
    }
}
