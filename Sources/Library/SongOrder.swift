import MediaModel

/// The order of the songs in one directory as mpd 0.23 keeps it (`song_cmp` in SongSort.cxx): by album
/// (none first, names collated), then disc, then track (numbers; none or 0 before 1), then file name
/// (collated). The album, disc and track are read from the view's kept properties; a view that keeps
/// none of them orders by file name alone.
struct SongOrder {
    private struct Key {
        var album: String?
        var disc: Int
        var track: Int
        var name: String
    }

    private let keys: (Int32) -> Key
    private let collation: NameCollation

    init(schema: ViewSchema, paths: [MediaPath], cells: CellTable, values: [[MediaValue]], collation: NameCollation) {
        self.collation = collation
        let album = schema.properties.firstIndex(of: .albumTitle)
        let disc = schema.properties.firstIndex(of: .discNumber)
        let track = schema.properties.firstIndex(of: .albumTrackNumber)
        func value(_ item: Int32, _ p: Int?) -> MediaValue? {
            guard let p else { return nil }
            let n = cells[Int(item), p]
            return n == 0 ? nil : values[p][Int(n)]
        }
        func number(_ v: MediaValue?) -> Int {
            guard let v else { return 0 }
            if let i = v.integer { return max(0, Int(i)) }
            return 0
        }
        keys = { item in
            var albumText: String?
            if case .text(let text)? = value(item, album), !text.isEmpty { albumText = text }
            return Key(album: albumText, disc: number(value(item, disc)), track: number(value(item, track)),
                       name: paths[Int(item)].lastComponent.string)
        }
    }

    func sorted(_ items: [Int32]) -> [Int32] {
        guard items.count > 1 else { return items }
        let keyed = items.map { (item: $0, key: keys($0)) }
        return keyed.sorted { a, b in compare(a.key, b.key) < 0 }.map(\.item)
    }

    private func compare(_ a: Key, _ b: Key) -> Int {
        switch (a.album, b.album) {
        case (nil, nil): break
        case (nil, _): return -1
        case (_, nil): return 1
        case (let x?, let y?):
            let c = collation.compare(x, y)
            if c != .orderedSame { return c == .orderedAscending ? -1 : 1 }
        }
        if a.disc != b.disc { return a.disc < b.disc ? -1 : 1 }
        if a.track != b.track { return a.track < b.track ? -1 : 1 }
        let c = collation.compare(a.name, b.name)
        return c == .orderedSame ? 0 : c == .orderedAscending ? -1 : 1
    }
}
