// user-play-bench: how long recording one play takes through `Library.recordPlay` (issue 40: < 1 ms), for a
// user who is not the owner (a row of `user_item_data` and one of the history, in one transaction) beside
// the owner (the item's counters and the history row). In-process, on a library of synthetic items.
//   swift run [-c release] user-play-bench LOCATOR [ITEMS] [PLAYS]   (defaults 10,000 items, 2,000 plays each)
// LOCATOR: a new SQLite path or a postgres:// URL; its users "me" (the owner) and "bob" are added if missing.
import Foundation
import BenchmarkSupport
import Library
import MediaIndex
import MediaModel

let arguments = CommandLine.arguments
guard (2...4).contains(arguments.count), let items = Int(arguments.count > 2 ? arguments[2] : "10000"),
      let plays = Int(arguments.count > 3 ? arguments[3] : "2000") else {
    FileHandle.standardError.write(Data("usage: user-play-bench LOCATOR [ITEMS] [PLAYS]\n".utf8))
    exit(2)
}
do {
    let library = try Library.open(LibraryLocator(arguments[1]), mode: .create)
    _ = try SyntheticItems.fill(library.store, to: items)
    for name in ["me", "bob"] where try library.store.user(named: name) == nil {
        try library.store.addUser(UserAccount(name: name, password: "", apiKey: nil, isAdmin: false, created: Date()))
    }
    let ids = try library.store.itemIDs(MediaQuery())
    print("user-play-bench \(arguments.dropFirst().joined(separator: " ")): \(ids.count) items, load \(try String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").prefix(3).joined(separator: " "))")
    var rng = SeededGenerator(seed: 40)
    for user in ["bob", "me"] {
        var times: [Double] = []
        for n in 0..<plays {
            let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
            let start = DispatchTime.now().uptimeNanoseconds
            try library.recordPlay(id: id, at: Date(timeIntervalSince1970: 1_800_000_000 + Double(n)), front: .library, user: user)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        times.sort()
        print(String(format: "%@ (%@): %d plays, median %.0f us, p95 %.0f us, max %.0f us (target: < 1000 us)", user,
                     user == "bob" ? "user_item_data" : "owner: the item's counters", plays,
                     times[times.count / 2], times[times.count * 95 / 100], times.last ?? 0))
    }
} catch {
    FileHandle.standardError.write(Data("user-play-bench: \(error)\n".utf8))
    exit(3)
}
