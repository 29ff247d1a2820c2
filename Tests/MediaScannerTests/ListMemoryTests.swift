import Foundation
import MediaIndex
import SQLiteStore
import MediaModel
import Testing
import TestSupport

/// `mlib ls` of many items stays in bounded memory whatever the order: SQLite sorted every row in memory
/// (`temp_store = MEMORY`, set for the scan's statement journals), ~35 MB more at 100,000 items, so a sorted
/// `ls` cost what the sort held; reads now sort through a temporary file.
@Suite struct ListMemoryTests {
    /// Peak RSS of `mlib ls ARGS` in KB (/usr/bin/time).
    static func peakRSS(_ arguments: [String]) throws -> Int {
        let record = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-rss-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: record) }
        let run = try ChildProcess.run("/usr/bin/time", ["-f", "%M", "-o", record, try CLIScanTests.mlib().path] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return Int(try String(contentsOfFile: record, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "no /usr/bin/time"))
    func aSortedListOfManyItemsCostsNoMoreMemoryThanAnUnsortedOne() throws {
        let box = try Sandbox()
        let index = try SQLiteIndex(path: box.library)
        // 20,000 items of ~1 KB each: a sort held in memory is ~20 MB.
        let filler = String(repeating: "x", count: 1_000)
        var batch: [ScanChange] = []
        for n in 0..<20_000 {
            var item = MediaItem(path: MediaPath("/m/\(n % 97)/\(n).mp3"))
            item.title = "t\(n * 7919 % 20_000)"
            item.artist = "a\(n % 101)"
            item[.comments] = .text(filler + String(n))
            batch.append(.add(item, FileStamp(size: 1, mtimeNanoseconds: 1, inode: Int64(n)), fingerprint: Int64(n)))
            if batch.count == 5_000 { try index.apply(batch); batch.removeAll() }
        }
        let unsorted = try Self.peakRSS(["ls", "--library", box.library, "--sort", "path"])
        let sorted = try Self.peakRSS(["ls", "--library", box.library])
        #expect(sorted - unsorted < 8_000, "sorted ls: \(sorted) KB, by path (an index's order): \(unsorted) KB")
    }
}
