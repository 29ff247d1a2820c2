@testable import MediaProbe
import Testing

/// `LyricsFollower`: which synced line is current at a position, which is next, and when that changes
/// (what `mlib play` shows and when it wakes to redraw; the timing itself is CLITests' PlayLyricsTests).
struct LyricsFollowerTests {
    static func synced(_ starts: [Int]) -> Lyrics {
        Lyrics(source: .lrc, text: "", lines: starts.enumerated().map { LyricsLine(startMs: $1, text: "l\($0)") })
    }

    @Test func currentNextAndChangeAtEveryBoundary() throws {
        let follower = try #require(LyricsFollower(Self.synced([500, 1200, 1200, 3000])))
        #expect(follower.index(at: 0) == nil && follower.index(at: 499) == nil)
        #expect(follower.index(at: 500) == 0 && follower.index(at: 1199) == 0)
        #expect(follower.index(at: 1200) == 2)           // two lines at one time: the later is current
        #expect(follower.index(at: 999_999) == 3)
        #expect(follower.lines(at: 100).current == nil && follower.lines(at: 100).next?.text == "l0")
        #expect(follower.lines(at: 3000).current?.text == "l3" && follower.lines(at: 3000).next == nil)
        #expect(follower.nextChange(after: 0) == 500 && follower.nextChange(after: 500) == 1200)
        #expect(follower.nextChange(after: 1200) == 3000 && follower.nextChange(after: 3000) == nil)
    }

    @Test func unsyncedLyricsAreNotFollowedAndTheSyncedSetIsChosen() {
        let plain = Lyrics(source: .uslt, language: "eng", text: "words")
        #expect(LyricsFollower(plain) == nil)
        #expect(LyricsFollower(choosingFrom: [plain]) == nil)
        let sylt = Lyrics(source: .sylt, language: "eng", text: "a", lines: [LyricsLine(startMs: 1, text: "a")])
        let lrc = Lyrics(source: .lrc, language: "deu", text: "b", lines: [LyricsLine(startMs: 2, text: "b")])
        #expect(LyricsFollower(choosingFrom: [plain, sylt, lrc])?.lyrics == lrc)             // a sidecar first, as mlib lyrics
        #expect(LyricsFollower(choosingFrom: [plain, sylt, lrc], language: "eng")?.lyrics == sylt)
        #expect(LyricsFollower(Lyrics(source: .lrc, text: "", lines: [])) == nil)
    }
}
