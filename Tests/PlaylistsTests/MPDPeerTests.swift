import Foundation
import MediaModel
import Testing
import TestSupport
@testable import Playlists
#if canImport(Glibc)
import Glibc
#endif

/// A real peer reads our files: a private MPD on loopback loads an exported `.m3u` from its
/// playlist_directory and must list the same tracks in the same order.
@Suite(.enabled(if: toolExists("mpd") && toolExists("mpc") && toolExists("ffmpeg"),
                "mpd, mpc or ffmpeg is not installed (apt install mpd mpc ffmpeg): MPD peer test skipped"))
struct MPDPeerTests {
    static let names = [
        "Björk & Co/01 Jóga 100% \"live\".flac",
        "it's a #test.ogg",
        "#starts with hash.flac",
        "日本語/曲 #2 (a;b,c=d).flac",
        "AC DC/x y/z.ogg",
    ]

    @Test func mpdLoadsOurM3UInOrder() throws {
        let dir = try TempDirectory()
        defer { dir.remove() }
        let music = dir.path + "/music", playlists = dir.path + "/playlists"
        try FileManager.default.createDirectory(atPath: playlists, withIntermediateDirectories: true)
        // Real audio files, in an order that is not the alphabetical one MPD's database would give.
        var items: [MediaItem] = []
        for (i, name) in Self.names.reversed().enumerated() {
            let path = music + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            let made = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=\(300 + 50 * i):duration=0.3",
                                          "-metadata", "title=Track \(i)", "-y", path])
            try #require(made.status == 0, "ffmpeg: \(made.err)")
            items.append(item(MediaPath(path), title: "Track \(i)", duration: 0.3))
        }
        try FileBytes.writeAtomically(PlaylistWriter.data(for: items, format: .m3u), to: MediaPath(playlists + "/absolute.m3u"))
        try FileBytes.writeAtomically(PlaylistWriter.data(for: items, format: .m3u, options: .init(paths: .relative(to: MediaPath(music)))),
                                      to: MediaPath(playlists + "/relative.m3u"))

        let mpd = try PrivateMPD(directory: dir.path, music: music, playlists: playlists)
        defer { mpd.stop() }
        try #require(try mpd.mpc(["-w", "update"]).status == 0)
        let expected = Array(Self.names.reversed())
        for name in ["absolute", "relative"] {
            _ = try mpd.mpc(["clear"])
            let load = try mpd.mpc(["load", name])
            #expect(load.status == 0, "mpc load \(name): \(load.err)")
            let listed = try mpd.mpc(["-f", "%file%", "playlist"]).out.split(separator: "\n").map(String.init)
            #expect(listed == expected, "\(name).m3u as MPD reads it")
        }
    }
}

/// An MPD of our own: loopback, a free port, null output, no auto-update, no zeroconf. `stop()` ends it.
struct PrivateMPD {
    let port: Int
    let process: SpawnedProcess

    init(directory: String, music: String, playlists: String) throws {
        port = try Self.freePort()
        let config = """
            music_directory "\(music)"
            playlist_directory "\(playlists)"
            db_file "\(directory)/mpd.db"
            log_file "\(directory)/mpd.log"
            bind_to_address "127.0.0.1"
            port "\(port)"
            auto_update "no"
            zeroconf_enabled "no"
            audio_output {
                type "null"
                name "null"
            }
            """
        try config.write(toFile: directory + "/mpd.conf", atomically: true, encoding: .utf8)
        process = try SpawnedProcess("mpd", ["--no-daemon", directory + "/mpd.conf"])
        for _ in 0..<100 {
            if try mpc(["status"]).status == 0 { return }
            guard process.isRunning else { break }
            usleep(100_000)
        }
        stop()
        let log = (try? String(contentsOfFile: directory + "/mpd.log", encoding: .utf8)) ?? ""
        throw PlaylistError("mpd did not start: \(log.suffix(300))")
    }

    func mpc(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try run("mpc", ["-h", "127.0.0.1", "-p", String(port)] + arguments)
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// A port the kernel just gave out on loopback (bound, read back, released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw PlaylistError("cannot find a free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
