import Foundation
import Library
import MediaModel
import TagWriting
import Testing

/// `Library.writeTags` writes and refreshes `round` files at a time: every file written is refreshed, the
/// reports are in the order asked and keep no read of the file (`probed`, handed to the refresh).
struct TagWriteRoundTests {
    @Test func everyRoundIsWrittenAndRefreshed() async throws {
        let names = ["mp3-id3v24.mp3", "flac-vorbis-cover.flac", "ogg-vorbis.ogg", "opus.opus", "m4a-aac-cover.m4a"]
        let folder = try TemporaryLibrary("rounds", copying: names)
        defer { folder.remove() }
        let library = try Library.open(.sqlite(path: folder.library), mode: .create)
        let music = MediaPath(folder.music.resolvingSymlinksInPath().path)
        try await library.scan([music])
        let files = names.map { music.appending(MediaPath($0)) }
        let jobs = files.enumerated().map { (file: $1, edit: TagEdit(changes: [TagChange(argument: "title=Round \($0)")!])) }
        let journal = TagJournal(directory: folder.directory.appendingPathComponent("journal").path)
        let reports = try await library.writeTags(jobs, writer: TagWriter(journal: journal), round: 2)
        #expect(reports.map(\.file) == files)
        #expect(reports.allSatisfy { $0.outcome == .inPlace || $0.outcome == .rewritten }, "\(reports.map(\.outcome))")
        #expect(reports.allSatisfy { $0.probed == nil })
        for (i, file) in files.enumerated() {
            #expect(try library.store.item(path: file)?.title == "Round \(i)")
        }
        let rescan = try await library.scan([music])
        #expect(rescan.summary.unchanged == names.count && rescan.summary.updated == 0, "\(rescan.summary)")
    }
}
