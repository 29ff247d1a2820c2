// query-bench: builds (once) a library of synthetic items and times queries in-process, release build.
//   swift run -c release query-bench LIBRARY [ITEMS]      (Benchmarks/query-bench runs the whole set)
import Foundation
import MediaIndex
import SQLiteStore
import MediaModel
import BenchmarkSupport

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: query-bench LIBRARY [ITEMS]\n".utf8))
    exit(2)
}
let libraryPath = arguments[1]
let itemCount = arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000

func time<T>(_ label: String, target: Double? = nil, runs: Int = 7, _ body: () throws -> T) rethrows -> T {
    var result = try body()                               // warm-up (page cache, statement cache)
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        result = try body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    samples.sort()
    let median = samples[samples.count / 2]
    let verdict = target.map { median < $0 ? "  (target < \(Int($0)) ms: ok)" : "  (target < \(Int($0)) ms: MISSED)" } ?? ""
    let padded = label.count < 52 ? label + String(repeating: " ", count: 52 - label.count) : label
    print(padded + String(format: " median %8.2f ms  min %8.2f ms", median, samples[0]) + verdict)
    return result
}

let index = try SQLiteIndex(path: libraryPath)
let start = Date()
let added = try SyntheticItems.fill(index, to: itemCount)
if added > 0 { print(String(format: "built %d synthetic items in %.1f s", added, Date().timeIntervalSince(start))) }
print("library: \(libraryPath), \(try index.count(MediaQuery())) items")

let artistX = "Björk 700"
func q(_ format: String) throws -> MediaQuery { MediaQuery(filter: try PredicateParser.parse(format), sort: [SortDescriptor(.albumTitle)]) }

let eqFolded = try time("indexed equality: artist ==[cd] \"bjork 700\"", target: 5) { try index.items(q("artist ==[cd] \"bjork 700\"")) }
let eqExact = try time("indexed equality: artist == \"Björk 700\"", target: 5) { try index.items(q("artist == \"\(artistX)\"")) }
let eqYear = try time("indexed equality: year == 1999 (count)", target: 5) { try index.count(q("year == 1999")) }
// artist, albumArtist, genre, composer are multi-valued: a value of a "A; B" row matches too.
let guest = try time("multi-valued equality: artist == \"Guest 11\"", target: 5) { try index.items(q("artist == \"Guest 11\"")) }
let guestFolded = try time("multi-valued equality: artist ==[cd] \"guest 11\"", target: 5) { try index.items(q("artist ==[cd] \"guest 11\"")) }
let genreCount = try time("multi-valued equality: genre == \"Jazz\" (count, 10,000 rows, half two-valued)") { try index.count(q("genre == \"Jazz\"")) }
let contains = try time("artist CONTAINS[cd] \"rk 70\"", target: 100) { try index.items(q("artist CONTAINS[cd] \"rk 70\"")) }
let short = try time("short form artist:björk (count)", target: 100) {
    try index.count(MediaQuery(filter: try ShortQueryParser.parse(terms: ["artist:björk"])))
}
let search = try time("full-text search \"sigur 13\"", target: 100) { try index.items(MediaQuery(filter: .search("sigur 13"))) }
let albums = try time("grouped albums (10,000 summaries)", target: 100) { try index.collectionSummaries(MediaQuery.albums()) }
let artists = try time("grouped artists (summaries)", target: 100) { try index.collectionSummaries(MediaQuery.artists()) }
let all = try time("count all", runs: 5) { try index.count(MediaQuery()) }
let sorted = try time("first 100 of all, sorted by artist,album", runs: 5) {
    try index.items(MediaQuery(sort: [SortDescriptor(.artist), SortDescriptor(.albumTitle)], limit: 100))
}
print("rows: \(eqFolded.count) \(eqExact.count) \(guest.count) \(guestFolded.count) \(genreCount) \(eqYear) \(contains.count) \(short) \(search.count) \(albums.count) albums "
      + "\(artists.count) artists \(all) total \(sorted.count) sorted")
