import Foundation
@testable import MediaIndex
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// The scan's reader on PostgreSQL reads many directories' states per round trip (an unchanged rescan was
/// one round trip per directory) and answers exactly what a read of each directory alone answers.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresDirectoryStateTests {
    /// A summary of a state that can be compared: item ids and stamps, failures and their codes.
    static func describe(_ state: DirectoryState) -> [String] {
        state.items.map { "item \($0.key) \($0.value.id) \($0.value.stamp.size) \($0.value.missing)" }.sorted()
            + state.failures.map { "failure \($0.key) \($0.value.size) \(state.failureCodes[$0.key] ?? "")" }.sorted()
    }

    /// 40 directories of 3 items under /r (one with a failure beside them), and another root /s.
    static func library() throws -> (index: PostgresIndex, directories: [MediaPath]) {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        var items: [MediaItem] = []
        var directories = [MediaPath("/r")]
        for d in 0..<40 {
            let directory = MediaPath(String(format: "/r/d%02d", d))
            directories.append(directory)
            for f in 0..<3 { items.append(sampleItem(directory.string + "/f\(f).mp3", title: "t\(d).\(f)", size: Int64(1000 + d))) }
        }
        items.append(sampleItem("/r/top.mp3", title: "top"))
        items.append(sampleItem("/s/other.mp3", title: "other"))
        try add(items, to: index)
        try index.apply([.fail(MediaPath("/r/d07/bad.mp3"), stamp(5), code: "corrupt", message: "no")])
        // Walk order: a directory, then its subdirectories in ascending byte order.
        return (index, directories + [MediaPath("/r/d07/empty"), MediaPath("/s")])
    }

    @Test func aScanReaderReadsManyDirectoriesPerRoundTripWithTheSameAnswers() throws {
        let (index, directories) = try Self.library()
        let alone = try index.secondConnection()
        let reader = index.scanReader()
        let before = reader.session.statementsSent
        for directory in directories {
            #expect(Self.describe(try reader.directoryState(directory)) == Self.describe(try alone.directoryState(directory)), "\(directory)")
        }
        #expect(reader.session.statementsSent - before == 1, "43 directories, \(reader.session.statementsSent - before) round trips")
        // The directories under a root the read-ahead covered are known without asking (issue 38: a round trip).
        #expect(try reader.indexedDirectories(under: MediaPath("/r")) == (try alone.indexedDirectories(under: MediaPath("/r"))))
        #expect(reader.session.statementsSent - before == 1, "the indexed directories were asked again")
        #expect(try reader.directoryState(MediaPath("/r/d07")).failures.count == 1)
    }

    @Test func aReadAheadCutAtItsRowLimitAnswersEveryDirectoryWhole() throws {
        let (index, directories) = try Self.library()
        let alone = try index.secondConnection()
        // 10 rows a read: most reads end inside a directory of 3 items, which the next read starts with.
        let reader = index.scanReader(rowsPerRead: 10)
        let before = reader.session.statementsSent
        for directory in directories {
            #expect(Self.describe(try reader.directoryState(directory)) == Self.describe(try alone.directoryState(directory)), "\(directory)")
        }
        let sent = reader.session.statementsSent - before
        #expect(sent > 1 && sent < directories.count / 2, "\(sent) round trips for \(directories.count) directories")
        // One directory larger than a read: read alone.
        let small = index.scanReader(rowsPerRead: 2)
        #expect(Self.describe(try small.directoryState(MediaPath("/r/d03"))) == Self.describe(try alone.directoryState(MediaPath("/r/d03"))))
    }

    @Test func aDirectoryAskedForAgainIsReadAgain() throws {
        let (index, _) = try Self.library()
        let reader = index.scanReader()
        let first = try reader.directoryState(MediaPath("/r/d05"))
        #expect(first.items.count == 3)
        let id = try #require(first.items[MediaPath("/r/d05/f0.mp3")]?.id)
        try index.removeItems([id])
        #expect(try reader.directoryState(MediaPath("/r/d05")).items.count == 2)
    }
}
