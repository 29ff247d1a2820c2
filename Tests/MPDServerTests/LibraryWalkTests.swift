import Foundation
import Library
import MediaModel
@testable import MPDServer
import SQLiteStore
import Testing

/// `listall`/`listallinfo` written a slice at a time (`LibraryWalk`): cut into as many slices as there
/// are songs, the walk writes exactly what one uncut walk writes, and that is the server's answer.
@Suite(.serialized, .enabled(if: toolExists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct LibraryWalkTests {
    @Test func aWalkCutIntoSlicesWritesTheWholeAnswer() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let store = try SQLiteIndex(path: library.library, mode: .existing)
        let view = try LibrarySnapshot.build(from: store, schema: .mpd, version: nil)
        let uris = LibraryURIs(roots: try store.roots())
        let browser = LibraryBrowser(view: view, uris: uris)
        for info in [true, false] {
            func walk(slice: Duration, songsPerClockCheck: Int) -> (text: String, steps: Int) {
                let walk = LibraryWalk(browser: browser, songs: SongWriter(uris: uris), uris: uris, info: info,
                                       top: try! browser.listing(""), slice: slice, songsPerClockCheck: songsPerClockCheck)
                var out = Response()
                var steps = 1
                while !walk.step(&out) { steps += 1 }
                return (String(decoding: out.bytes, as: UTF8.self), steps)
            }
            let whole = walk(slice: .seconds(60), songsPerClockCheck: 64)
            let sliced = walk(slice: .zero, songsPerClockCheck: 1)
            #expect(whole.steps == 1)
            // A slice per song (and one for the last directories' ends): the walk gave the loop back
            // between them.
            #expect(sliced.steps == view.count + 1)
            #expect(sliced.text == whole.text)

            let server = try ServeProcess(library: library.library)
            defer { server.stop() }
            let answer = try RawClient(port: server.port).command(info ? "listallinfo" : "listall")
            #expect(answer.dropLast().joined(separator: "\n") + "\n" == whole.text)
        }
    }

    /// `listallinfo` from the song blocks kept per view (`SongLineCache`): the walk that makes them and
    /// the walk that copies them write what the field-by-field writer writes, also cut into slices; a
    /// client with a tag mask gets its own lines, not the blocks.
    @Test func songBlocksWriteWhatTheWriterWrites() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let store = try SQLiteIndex(path: library.library, mode: .existing)
        let view = try LibrarySnapshot.build(from: store, schema: .mpd, version: nil)
        let uris = LibraryURIs(roots: try store.roots())
        let browser = LibraryBrowser(view: view, uris: uris)
        func walk(_ songs: SongWriter, lines: SongLineCache?, slice: Duration = .seconds(60)) -> String {
            let walk = LibraryWalk(browser: browser, songs: songs, uris: uris, info: true, top: try! browser.listing(""),
                                   lines: lines, slice: slice, songsPerClockCheck: 1)
            var out = Response()
            while !walk.step(&out) {}
            return String(decoding: out.bytes, as: UTF8.self)
        }
        let written = walk(SongWriter(uris: uris), lines: nil)
        let lines = SongLineCache(view: view)
        #expect(walk(SongWriter(uris: uris), lines: lines) == written)
        #expect(walk(SongWriter(uris: uris), lines: lines, slice: .zero) == written)
        #expect(written.contains("Title: "))

        // Past its budget the cache keeps no more blocks and writes the same lines.
        let none = SongLineCache(view: view, pageBudget: 0)
        #expect(walk(SongWriter(uris: uris), lines: none) == written)
        #expect(walk(SongWriter(uris: uris), lines: none) == written)
        #expect(none.keptCount == 0 && lines.keptCount == view.count, "\(none.keptCount) and \(lines.keptCount) of \(view.count) kept")

        let titlesOff = SongWriter(uris: uris, enabledTags: Set(MPDTag.all.map(\.name)).subtracting(["Title"]))
        let masked = walk(titlesOff, lines: lines)
        #expect(masked == walk(titlesOff, lines: nil))
        #expect(!masked.contains("Title: "))
    }
}
