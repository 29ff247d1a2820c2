// synthetic-library: fills a library (SQLite path or postgres:// locator) with synthetic items through the
// store, for figures at sizes no corpus of media files reaches (postgres-bench.sh: `ls` of 100,000 items).
//   swift run -c release synthetic-library LOCATOR [ITEMS]      (default 100,000; items it holds are kept)
import Foundation
import BenchmarkSupport
import Library
import MediaIndex
import MediaModel

let arguments = CommandLine.arguments
guard arguments.count >= 2, arguments.count <= 3, let count = Int(arguments.count == 3 ? arguments[2] : "100000") else {
    FileHandle.standardError.write(Data("usage: synthetic-library LOCATOR [ITEMS]\n".utf8))
    exit(2)
}
do {
    let store = try LibraryLocator(arguments[1]).open()
    let start = Date()
    let added = try SyntheticItems.fill(store, to: count)
    print(String(format: "added %d synthetic items in %.1f s; the library holds %d", added, Date().timeIntervalSince(start),
                 try store.count(MediaQuery())))
} catch {
    FileHandle.standardError.write(Data("synthetic-library: \(error)\n".utf8))
    exit(3)
}
