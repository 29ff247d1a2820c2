import Foundation
import Glibc
import TestSupport
import Testing

/// `mlib serve`'s options for the API's limits (issue 37): each reaches the server, and a limit of zero or
/// less is refused before anything starts, with a message naming the option.
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct LimitOptionsTests {
    @Test func zeroOrNegativeLimitsAreRefusedByName() throws {
        for option in ["--http-read-timeout", "--http-idle-timeout", "--http-write-timeout", "--http-max-connections",
                       "--http-max-connections-per-address", "--http-transcodes", "--http-transcodes-per-user"] {
            for value in ["0", "-3"] {
                let run = try mlib(["serve", "--library", "/nonexistent/library.sqlite", "--http", "0", "--no-mpd", "\(option)=\(value)"])
                #expect(run.status == 2 && run.stderr.contains(option) && run.stderr.contains("at least 1"), "\(option) \(value): \(run.stderr)")
            }
        }
        let over = try mlib(["serve", "--library", "/nonexistent/library.sqlite", "--http", "0", "--no-mpd",
                             "--http-max-connections", "4", "--http-max-connections-per-address", "8"])
        #expect(over.status == 2 && over.stderr.contains("cannot exceed"), "\(over.stderr)")
    }

    /// `--http-read-timeout 1`: a client that sends half a request head is closed after about a second,
    /// not the default five.
    @Test func theReadTimeoutOptionReachesTheServer() async throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try HTTPServeProcess(library: library, extra: ["--http-read-timeout", "1"])
        defer { server.stop() }
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(server.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let start = ContinuousClock.now
        _ = "GET /rest/ping HTTP/1.1\r\nHost: x\r\n".withCString { send(socket, $0, strlen($0), 0) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        while recv(socket, &byte, 1, 0) > 0 {}
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .milliseconds(3500) && elapsed > .milliseconds(500), "closed after \(elapsed) (default: 5 s)")
    }
}
