import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

func toolExists(_ name: String) -> Bool { ChildProcess.exists(name) }

enum Paths {
    static let repo = ChildProcess.repo
    static let fixtures = repo.appendingPathComponent("Fixtures")
    static var mlib: URL { ChildProcess.mlib }
}

/// Runs a program to its end; returns status and output (`ChildProcess`, shared with the CLI tests).
@discardableResult
func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let r = try ChildProcess.run(program, arguments)
    return (r.status, r.out, r.stderr)
}

/// A music folder laid out as an MPD user's would be (the fixture files, plus two 30 s tones made by
/// ffmpeg so that playback lasts long enough to pause), and an mlib library scanned from it.
struct TestLibrary {
    let directory: URL
    var music: URL { directory.appendingPathComponent("music") }
    /// The library's locator: an SQLite file in `directory`, or the PostgreSQL database given to `init`.
    let library: String

    init(library locator: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-mpd-\(UUID().uuidString)")
        library = locator ?? directory.appendingPathComponent("library.sqlite").path
        let fm = FileManager.default
        for sub in ["Album1", "Other", "Long"] {
            try fm.createDirectory(at: directory.appendingPathComponent("music/\(sub)"), withIntermediateDirectories: true)
        }
        let copies = [("flac-vorbis-cover.flac", "Album1"), ("mp3-id3v24.mp3", "Album1"), ("ogg-vorbis.ogg", "Other"),
                      ("m4a-aac-cover.m4a", "Other"), ("opus.opus", "")]
        for (name, sub) in copies {
            try fm.copyItem(at: Paths.fixtures.appendingPathComponent(name),
                            to: music.appendingPathComponent(sub.isEmpty ? name : "\(sub)/\(name)"))
        }
        for (n, frequency) in [(1, 440), (2, 660)] {
            let r = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=\(frequency):duration=30:sample_rate=22050",
                                       "-ac", "1", "-metadata", "title=Tone \(n)", "-metadata", "artist=Sine Wave",
                                       "-metadata", "album=Long Tones", "-metadata", "track=\(n)",
                                       music.appendingPathComponent("Long/tone\(n).flac").path])
            guard r.status == 0 else { throw TestFailure("ffmpeg: \(r.err)") }
        }
        let scan = try run(Paths.mlib.path, ["scan", "--library", library, "-q", music.path])
        guard scan.status == 0 else { throw TestFailure("mlib scan: \(scan.err)") }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// `mlib serve` on a free loopback port with the null sink; `stop()` sends SIGTERM and waits.
final class ServeProcess: @unchecked Sendable {
    private let child: ServeChild
    var process: SpawnedProcess { child.process }
    var port: Int { child.port }

    init(library: String, extra: [String] = [], environment: [String: String] = [:]) throws {
        child = try ServeChild(mlib: Paths.mlib, arguments: ["serve", "--library", library, "--port", "0", "--sink", "null"] + extra,
                               environment: environment)
    }

    @discardableResult
    func mpc(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try run("mpc", ["-h", "127.0.0.1", "-p", String(port)] + arguments)
    }

    /// SIGTERM; returns the exit status.
    @discardableResult
    func stop() -> Int32 { child.stop() }
}

/// A plain protocol client: one line out, the answer (up to OK or ACK) back.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        // No close(fd) here: every stored property is set, so a throw from here on runs deinit, which
        // closes it. Closing it here as well closed the descriptor twice, and the second close could hit
        // whatever another test thread had opened under that number meanwhile (a pipe to a child
        // process, libdispatch's own descriptors).
        guard ok else { throw TestFailure("connect: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        greetingLine = try readLine() ?? ""
    }
    private(set) var greetingLine = ""

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestFailure("send failed") }
            sent += n
        }
    }

    /// One line, or nil when the server closed the connection.
    func readLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { return nil }
            if n < 0 { throw TestFailure("recv: \(String(cString: strerror(errno)))") }
            buffer += chunk[..<n]
        }
    }

    /// Sends a command and returns the lines of its answer, the final OK or ACK line included.
    func command(_ line: String) throws -> [String] {
        try send(Array((line + "\n").utf8))
        return try answer()
    }

    func answer() throws -> [String] {
        var lines: [String] = []
        while let line = try readLine() {
            lines.append(line)
            if line == "OK" || line.hasPrefix("ACK ") { return lines }
        }
        throw TestFailure("connection closed after \(lines)")
    }

    /// True when the server has closed the connection (reads until EOF or timeout).
    func isClosed() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }
}
