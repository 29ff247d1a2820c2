import MediaIndex
import MediaModel

/// Synthetic items for the benchmarks that need many (query-bench, synthetic-library): no media files
/// behind them, the tags real libraries have.
public enum SyntheticItems {
    static let artistStems = ["Björk", "Beyoncé", "The Beatles", "Sigur Rós", "Motörhead", "Daft Punk", "Röyksopp", "Ólafur Arnalds",
                              "Radiohead", "A Tribe Called Quest", "Mötley Crüe", "Portishead", "Massive Attack", "Aphex Twin"]
    static let genres = ["Rock", "Pop", "Electronic", "Jazz", "Hip-Hop", "Classical", "Folk", "Metal", "Ambient", "Soul"]

    /// 10 tracks per album, 5 albums per artist: 100,000 items → 2,000 artists, 10,000 albums. Multi-valued
    /// tags as real libraries have them: 1 album in 20 has two genres, 1 in 25 a guest artist on every track.
    public static func item(_ n: Int, _ rng: inout SeededGenerator) -> MediaItem {
        let albumNumber = n / 10, artistNumber = albumNumber / 5
        let artist = "\(artistStems[artistNumber % artistStems.count]) \(artistNumber)"
        var item = MediaItem(path: MediaPath("/music/\(artist)/Album \(albumNumber)/\(n % 10 + 1) Song \(n).flac"),
                             tags: ["TITLE": "Song \(n)", "ARTIST": artist])
        item.title = "Song \(n) \(["love", "night", "río", "straße", "day"][n % 5])"
        item.artist = albumNumber % 25 == 1 ? "\(artist); Guest \(albumNumber % 40)" : artist
        item.albumArtist = artist
        item.albumTitle = "Album \(albumNumber)"
        item.genre = genres[albumNumber % genres.count] + (albumNumber % 20 == 3 ? "; Soul" : "")
        item.mediaType = n % 50 == 0 ? .podcast : .music
        item.playbackDuration = Double.random(in: 60...600, using: &rng)
        item[.albumTrackNumber] = .integer(Int64(n % 10 + 1))
        item[.discNumber] = .integer(1)
        item[.year] = .integer(Int64(1960 + albumNumber % 60))
        item[.releaseDate] = .text("\(1960 + albumNumber % 60)-0\(1 + albumNumber % 9)-15")
        item[.fileSize] = .integer(Int64.random(in: 1_000_000...50_000_000, using: &rng))
        item[.container] = .text("flac")
        item[.audioCodec] = .text("flac")
        item[.sampleRate] = .integer(44100)
        item[.channels] = .integer(2)
        return item
    }

    /// Adds items until the library holds `count` (numbered from the items it has, through the store's scan
    /// writer in batches of 5,000, as a scan writes); returns how many it added.
    public static func fill(_ store: any LibraryStore, to count: Int) throws -> Int {
        // The items' root, so that the MPD tree and Subsonic's folders hold them as a scanned library's.
        try store.addRoot(MediaPath("/music"))
        let existing = try store.count(MediaQuery())
        guard existing < count else { return 0 }
        var rng = SeededGenerator(seed: 42)
        var batch: [ScanChange] = []
        for n in existing..<count {
            batch.append(.add(item(n, &rng), FileStamp(size: 1, mtimeNanoseconds: 1, inode: Int64(n)), fingerprint: Int64(n)))
            if batch.count == 5000 { try store.apply(batch); batch.removeAll() }
        }
        try store.apply(batch)
        return count - existing
    }
}
