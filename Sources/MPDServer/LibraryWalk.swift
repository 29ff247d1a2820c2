import Foundation
import Library

/// `listall` and `listallinfo` of a directory, written a slice at a time: the walk keeps where it is (a
/// stack of directory listings and the position in each), so a long one gives the loop back between
/// slices and other clients are answered meanwhile. At 100,040 songs one `listallinfo` held the loop for
/// ~300 ms, and a ping behind a `command_list` flood of them waited 359 ms (issue 26: < 100 ms).
final class LibraryWalk: @unchecked Sendable {
    /// How long one slice writes before the loop serves others, when nothing else waits for a turn.
    static let slice = Duration.milliseconds(8)
    /// The shortest slice: what each of many long answers gets per turn.
    static let shortestSlice = Duration.milliseconds(1)

    /// The slice for a walk when `waiting` other long answers wait for their turn: the turns of all of
    /// them take about `slice` together, and none less than `shortestSlice`. A fixed 1 ms slice cut each
    /// `listallinfo` of the 10-client load at 2,004 songs into ~5 turns behind the other clients' and its
    /// p95 went from 0.8x to 1.2x mpd's; 8 ms for each of 20 flooding clients would hold a ping 160 ms.
    static func slice(whileWaiting waiting: Int) -> Duration {
        max(shortestSlice, slice / (waiting + 1))
    }
    /// Songs written between looks at the clock: reading it per song showed in the profile.
    static let songsPerClockCheck = 64

    private struct Frame {
        var listing: LibraryBrowser.Listing
        var nextSong = 0
        var nextDirectory = 0
    }

    private let browser: LibraryBrowser
    private let view: LibrarySnapshot
    private let songs: SongWriter
    /// The view's song blocks, when the client has every tag on (`listallinfo` only).
    private let lines: SongLineCache?
    private let uris: LibraryURIs
    private let info: Bool
    private var stack: [Frame]
    private let slice: Duration
    private let songsPerClockCheck: Int

    init(browser: LibraryBrowser, songs: SongWriter, uris: LibraryURIs, info: Bool, top: LibraryBrowser.Listing,
         lines: SongLineCache? = nil,
         slice: Duration = LibraryWalk.slice, songsPerClockCheck: Int = LibraryWalk.songsPerClockCheck) {
        precondition(lines.map { $0.view === browser.view } ?? true, "the blocks of another view")
        self.lines = info && songs.enabledTags == nil ? lines : nil
        self.slice = slice
        self.songsPerClockCheck = songsPerClockCheck
        self.browser = browser
        view = browser.view
        self.songs = songs
        self.uris = uris
        self.info = info
        stack = [Frame(listing: top)]
    }

    /// Writes on for about `slice` (the one given, or the walk's own); true when the walk is done (or the answer went past the output buffer,
    /// which ends it: the client is closed).
    func step(_ out: inout Response, slice: Duration? = nil) -> Bool {
        let deadline = ContinuousClock.now + (slice ?? self.slice)
        var written = 0
        while !stack.isEmpty {
            if out.overflowed { return true }
            if written >= songsPerClockCheck {
                written = 0
                if ContinuousClock.now > deadline { return false }
            }
            let top = stack.count - 1
            if stack[top].nextSong < stack[top].listing.songs.count {
                let song = stack[top].listing.songs[stack[top].nextSong]
                stack[top].nextSong += 1
                written += 1
                if let lines { lines.write(song, to: &out) } else if info { songs.write(song, of: view, to: &out) } else { out.field("file", uris.uri(of: view.paths[Int(song)]) ?? "") }
            } else if stack[top].nextDirectory < stack[top].listing.directories.count {
                let (child, directory) = stack[top].listing.directories[stack[top].nextDirectory]
                stack[top].nextDirectory += 1
                out.field("directory", child)
                if info, let modified = view.directories[Int(directory)].modified { out.timestamp("Last-Modified", seconds: modified) }
                stack.append(Frame(listing: browser.listing(directory, uri: child)))
            } else {
                stack.removeLast()
            }
        }
        return true
    }
}
