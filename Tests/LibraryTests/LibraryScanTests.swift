import Foundation
import Library
import MediaIndex
import MediaModel
import Testing

/// `Library.scan`: the store's lock, then the scan, then the playlist files mirrored.
struct LibraryScanTests {
    @Test func aScanTakesTheLockAddsTheRootAndMirrorsPlaylistFiles() async throws {
        let folder = try TemporaryLibrary("scan", copying: ["opus.opus", "ogg-vorbis.ogg"])
        defer { folder.remove() }
        try "opus.opus\n".write(to: folder.music.appendingPathComponent("one.m3u8"), atomically: true, encoding: .utf8)
        let library = try Library.open(.sqlite(path: folder.library), mode: .create)
        let music = MediaPath(folder.music.resolvingSymlinksInPath().path)

        // Another scan holds the lock: with no wait, the busy error at once, and nothing written.
        var held = try library.scanLock(roots: [music], timeout: 0)
        var options = Library.ScanOptions()
        options.lockTimeout = 0
        await #expect { try await library.scan([music], options: options) } throws: { Library.isScanLockBusy($0) }
        #expect(try library.store.roots().isEmpty)
        withExtendedLifetime(held) { held = nil }

        let result = try await library.scan([music], options: options)
        #expect(result.summary.added == 2)
        #expect(!result.interrupted)
        #expect(result.playlists.synced == 1)
        #expect(try library.store.roots() == [music])
        #expect(try library.items(ofPlaylist: "one")?.map(\.path.lastComponent.string) == ["opus.opus"])
        #expect(try library.items(MediaQuery(sort: [SortDescriptor(.title)])).map(\.title) == ["Café Smørrebrød 日本語", "Opus Song"])
    }

    /// A scan that waits says so once, and goes on when the other scan ends.
    @Test func aSecondScanWaitsForTheFirst() async throws {
        let folder = try TemporaryLibrary("wait", copying: ["opus.opus"])
        defer { folder.remove() }
        let library = try Library.open(.sqlite(path: folder.library), mode: .create)
        let music = MediaPath(folder.music.resolvingSymlinksInPath().path)
        var held = try library.scanLock(roots: [music], timeout: 0)
        let waited = Flag()
        var options = Library.ScanOptions()
        options.onWait = { waited.set() }
        let scan = Task { try await library.scan([music], options: options) }
        for _ in 0..<100 where !waited.isSet { try await Task.sleep(for: .milliseconds(100)) }
        #expect(waited.isSet)
        // What must not happen: a scan while the lock is held. The waiting scan tries the lock every 0.1 s
        // (ScanLock); 0.3 s is three tries, any of which would have let a wrong scan through.
        try await Task.sleep(for: .milliseconds(300))
        #expect(try library.store.roots().isEmpty, "scanned while the lock was held")
        withExtendedLifetime(held) { held = nil }
        #expect(try await scan.value.summary.added == 1)
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// A scan lock that cannot be taken closes only its own descriptor, once: `mlib watch` tries again every
/// second while a cron scan runs, and a Swift program has other threads opening files meanwhile (a
/// descriptor closed twice closed theirs: "disk I/O error" from SQLite, seen in this suite).
struct ScanLockDescriptorTests {
    @Test func aBusyLockLeavesOtherThreadsDescriptorsOpen() throws {
        let folder = try TemporaryLibrary("fds")
        defer { folder.remove() }
        let library = try Library.open(.sqlite(path: folder.library), mode: .create)
        let held = try library.scanLock(roots: [], timeout: 0)
        let done = Flag(), lost = Flag()
        let opener = Thread {
            while !done.isSet {
                let fd = open("/dev/null", O_RDONLY)
                for _ in 0..<50 where fcntl(fd, F_GETFD) == -1 { lost.set() }
                close(fd)
            }
        }
        opener.start()
        for _ in 0..<2000 {
            #expect(throws: (any Error).self) { try library.scanLock(roots: [], timeout: 0) }
        }
        done.set()
        while !opener.isFinished { usleep(1000) }
        withExtendedLifetime(held) {}
        #expect(!lost.isSet, "a descriptor of another thread was closed under it")
    }
}
