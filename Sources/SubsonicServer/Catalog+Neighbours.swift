import Foundation

/// Artists that sound alike, as far as the library itself can say with no internet: the genres their songs
/// are tagged with (a genre few artists share counts more than one most artists share) and the years of
/// their albums. Computed per request from the catalog (one pass over the songs' genres), so that a new
/// snapshot costs nothing until a client asks.
extension Catalog {
    /// The other artists by likeness to `artist` (artist numbers), most alike first; none that shares no
    /// genre.
    func similarArtists(to artist: Int) -> [Int] {
        let base = slotBase + Slot.genre
        var artistsOfGenre: [String: Set<Int>] = [:]
        for item in 0..<Int32(view.count) {
            let cell = view.cell(item, slot: base)
            guard cell != 0 else { continue }
            let owner = artistOfAlbum(Int(albumOfItem[Int(item)]))
            for part in view.parts(cell, slot: base) { artistsOfGenre[Self.sortKey(view.string(part, slot: base)), default: []].insert(owner) }
        }
        var score: [Int: Double] = [:]
        for (_, members) in artistsOfGenre where members.contains(artist) {
            let weight = 1 / log2(1 + Double(members.count))
            for other in members where other != artist { score[other, default: 0] += weight }
        }
        let decade = medianYear(of: artist)
        for (other, value) in score {
            if let a = decade, let b = medianYear(of: other), abs(a - b) <= 5 { score[other] = value + 0.25 }
        }
        return score.keys.sorted { (score[$0]!, artists[$1].name) > (score[$1]!, artists[$0].name) }
    }

    /// The number of the artist (album artist) of album `number`.
    func artistOfAlbum(_ number: Int) -> Int { artistByID[albums[number].artistID] ?? 0 }

    private func medianYear(of artist: Int) -> Int? {
        let years = artists[artist].albums.compactMap { albums[$0].year }.sorted()
        return years.isEmpty ? nil : years[years.count / 2]
    }
}
