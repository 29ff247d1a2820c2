import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 49: an item this FFmpeg cannot decode (an AC-4 MP4) is listed by both servers like any other, and
/// refused with the reason where it would be decoded: the MPD player's `status` says "this FFmpeg cannot
/// decode ac-4" (mpc) and the queue goes on; a Subsonic transcoded `stream` is an error envelope with it,
/// before any audio is sent (curl). The file itself (`download`, `stream` of the original) stays available.
@Suite(.enabled(if: ChildProcess.exists("mpc") && ChildProcess.exists("curl") && UndecodableMedia.ffmpeg != nil,
                "mpc, curl or ffmpeg missing (scripts/install-deps.sh)"))
struct UndecodableFrontsTests {
    @Test(arguments: Store.available)
    func bothServersListItAndSayWhyTheyCannotPlayIt(_ store: Store) throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        _ = try UndecodableMedia.mp4(in: library.music, fourcc: "ac-4", config: "dac4")
        let scan = try mlib(["scan", "--library", library.library, "-q", library.music.path])
        try #require(scan.status == 0, "mlib scan: \(scan.stderr)")
        let server = try BothServeProcess(library: library)
        defer { server.stop() }

        // MPD: listed and found; played, the player says why and goes on to the next song.
        #expect(try server.mpc(["listall"]).out.split(separator: "\n").contains("ac-4.mp4"))
        #expect(try server.mpc(["search", "title", "Four Sees"]).out == "ac-4.mp4\n")
        #expect(try server.mpc(["add", "ac-4.mp4"]).status == 0)
        #expect(try server.mpc(["add", "opus.opus"]).status == 0)
        #expect(try server.mpc(["play"]).status == 0)
        var status = ""
        let said = try Poll.until(timeout: 10) {
            status = try server.mpc(["status"]).out
            return status.contains("this FFmpeg cannot decode ac-4")
        }
        #expect(said, "mpc status: \(status)")
        #expect(try Poll.until(timeout: 10) { try server.mpc(["current"]).out.contains("Opus") }, "the next song plays")

        // Subsonic: listed by search3, with its codec; transcoding it is an error with the reason.
        let search = try ChildProcess.run("curl", ["-s", "\(server.base)/search3?query=Four%20Sees&\(BothServeProcess.auth)&f=json"])
        let root = try JSONSerialization.jsonObject(with: search.stdout) as? [String: Any]
        let songs = ((root?["subsonic-response"] as? [String: Any])?["searchResult3"] as? [String: Any])?["song"] as? [[String: Any]] ?? []
        let id = try #require(songs.first?["id"] as? String, "search3: \(search.out)")
        #expect(songs.first?["title"] as? String == "Four Sees")
        for format in ["mp3", "opus"] {
            let stream = try ChildProcess.run("curl", ["-s", "-i", "\(server.base)/stream?id=\(id)&format=\(format)&\(BothServeProcess.auth)&f=json"])
            #expect(stream.out.contains("\"status\":\"failed\"") && stream.out.contains("this FFmpeg cannot decode ac-4"), "\(format): \(stream.out)")
            #expect(!stream.out.contains("/proc/self/fd"), "the message names no descriptor: \(stream.out)")
        }
        let original = try ChildProcess.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
                                                     "\(server.base)/download?id=\(id)&\(BothServeProcess.auth)"])
        let size = (try FileManager.default.attributesOfItem(atPath: library.music.appendingPathComponent("ac-4.mp4").path)[.size] as? Int) ?? -1
        #expect(original.out == "200 \(size)", "download: \(original.out)")
    }
}
