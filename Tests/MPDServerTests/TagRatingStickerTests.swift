import Foundation
import Testing

/// The `rating` sticker is the rating `mlib ls` shows: the user's, else the file's tag rating (mlib(1),
/// "Ratings in tags"); deleting the sticker clears the user's and the tag's shows again.
@Suite(.enabled(if: toolExists("mpc") && toolExists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct TagRatingStickerTests {
    @Test func theRatingStickerFallsBackToTheTagRating() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("odd/rating-popm.mp3"),
                                         to: library.music.appendingPathComponent("Other/rating-popm.mp3"))
        let scan = try run(Paths.mlib.path, ["scan", "--library", library.library, "-q", library.music.path])
        try #require(scan.status == 0, "\(scan.err)")
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let song = "Other/rating-popm.mp3"
        #expect(try server.mpc(["sticker", song, "get", "rating"]).out == "rating=4\n")     // POPM 196
        #expect(try server.mpc(["sticker", song, "set", "rating", "2"]).status == 0)
        #expect(try server.mpc(["sticker", song, "get", "rating"]).out == "rating=2\n")
        #expect(try server.mpc(["sticker", song, "delete", "rating"]).status == 0)
        #expect(try server.mpc(["sticker", song, "get", "rating"]).out == "rating=4\n")
    }
}
