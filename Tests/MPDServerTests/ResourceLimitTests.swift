import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Bounded resources as mpd's (issue 26, 2 and 3): the output buffer cap closes a client whose answers
/// go past it, a client that does not read its answers holds no memory and no other client up, idle
/// connections are dropped after the timeout, and connections past the cap are refused with a line.
@Suite(.serialized, .enabled(if: toolExists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct ResourceLimitTests {
    /// The server's resident memory in KiB (VmRSS).
    static func residentKiB(_ server: ServeProcess) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    /// Milliseconds another client waits for `ping`.
    static func pingMilliseconds(_ port: Int) throws -> Double {
        let client = try RawClient(port: port)
        let start = ContinuousClock.now
        #expect(try client.command("ping") == ["OK"])
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// A send that gives up after a second when the server stops reading (it must, once it holds enough).
    static func sendWithoutBlocking(_ client: RawClient, _ bytes: [UInt8]) {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(client.fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        try? client.send(bytes)
    }

    @Test func commandListFloodsAreClosedAndOthersAreServed() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        // 256 KiB: the test library's listallinfo is ~3 KB, so 1,000 of them are ~3 MB.
        let server = try ServeProcess(library: library.library, extra: ["--max-output-buffer", "256"])
        defer { server.stop() }
        _ = try RawClient(port: server.port).command("listallinfo")
        let idle = Self.residentKiB(server)

        var flooders: [RawClient] = []
        let list = "command_list_begin\n" + String(repeating: "listallinfo\n", count: 1000) + "command_list_end\n"
        for _ in 0..<20 {
            let flooder = try RawClient(port: server.port)
            try flooder.send(Array(list.utf8))
            flooders.append(flooder)
        }
        #expect(try Self.pingMilliseconds(server.port) < 100)
        for flooder in flooders { #expect(flooder.isClosed()) }

        // A 10 MB line: closed too (the input limit), nothing kept.
        let long = try RawClient(port: server.port)
        Self.sendWithoutBlocking(long, Array(repeating: UInt8(ascii: "a"), count: 10_000_000) + [UInt8(ascii: "\n")])
        #expect(long.isClosed())

        #expect(try Self.pingMilliseconds(server.port) < 100)
        let after = Self.residentKiB(server)
        #expect(after < 2 * idle, "RSS \(idle) KiB idle, \(after) KiB after the floods")
        #expect(server.process.isRunning)
    }

    /// A client that pipelines commands and never reads the answers: the server stops running its
    /// commands once its socket is full (and stops reading its input), so memory stays bounded and other
    /// clients are answered at once.
    @Test func aClientThatDoesNotReadHoldsNoMemory() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        _ = try RawClient(port: server.port).command("listallinfo")
        let idle = Self.residentKiB(server)

        let reader = try RawClient(port: server.port)
        var size = Int32(4096)
        setsockopt(reader.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        // 20,000 × ~3 KB = 60 MB of answers if they were all produced.
        Self.sendWithoutBlocking(reader, Array(String(repeating: "listallinfo\n", count: 20_000).utf8))
        Thread.sleep(forTimeInterval: 1)
        #expect(try Self.pingMilliseconds(server.port) < 100)
        let after = Self.residentKiB(server)
        #expect(after < 2 * idle, "RSS \(idle) KiB idle, \(after) KiB with an unread client")
        #expect(server.process.isRunning)
    }

    /// The same with short answers, which the server gathers per client and hands to the channel in 4 KiB
    /// pieces without counting them (`ClientSession.countedAnswerBytes`): the channel's writability alone
    /// must hold them.
    @Test func aClientThatDoesNotReadItsShortAnswersHoldsNoMemory() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        _ = try RawClient(port: server.port).command("status")
        let idle = Self.residentKiB(server)

        let reader = try RawClient(port: server.port)
        var size = Int32(4096)
        setsockopt(reader.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        // 400,000 × ~150 bytes = 60 MB of answers if they were all produced.
        Self.sendWithoutBlocking(reader, Array(String(repeating: "status\nstats\n", count: 200_000).utf8))
        Thread.sleep(forTimeInterval: 1)
        #expect(try Self.pingMilliseconds(server.port) < 100)
        let after = Self.residentKiB(server)
        #expect(after < 2 * idle, "RSS \(idle) KiB idle, \(after) KiB with an unread client")
        #expect(server.process.isRunning)
    }

    /// Short answers gathered per client come back whole and in order, pipelined or not: 3,000 commands in
    /// one write give 3,000 answers, each `stats` the same (within a second) and each `ping` a bare OK.
    @Test func pipelinedShortAnswersComeBackInOrder() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let single = try client.command("stats").filter { !$0.hasPrefix("uptime:") }
        #expect(single.contains("songs: 7"))
        try client.send(Array(String(repeating: "ping\nstats\nstatus\n", count: 1000).utf8))
        for _ in 0..<1000 {
            #expect(try client.answer() == ["OK"])
            #expect(try client.answer().filter { !$0.hasPrefix("uptime:") } == single)
            let status = try client.answer()
            #expect(status.first == "volume: 100" && status.last == "OK", "\(status)")
        }
        #expect(try client.command("ping") == ["OK"])
    }

    @Test func idleConnectionsAreDroppedAfterTheTimeout() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library, extra: ["--connection-timeout", "1"])
        defer { server.stop() }
        let silent = try RawClient(port: server.port)
        let waiting = try RawClient(port: server.port)
        try waiting.send(Array("idle\n".utf8))
        Thread.sleep(forTimeInterval: 2.5)
        #expect(silent.isClosed())
        // A client in idle is not timed out (as with mpd): noidle answers.
        #expect(try waiting.command("noidle") == ["OK"])
    }

    @Test func connectionsPastTheCapAreRefusedWithALine() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        var served: [RawClient] = []
        for _ in 0..<100 { served.append(try RawClient(port: server.port)) }
        #expect(served.allSatisfy { $0.greetingLine == "OK MPD 0.23.5" })
        for _ in 0..<50 {
            let refused = try RawClient(port: server.port)
            #expect(refused.greetingLine == "ACK [5@0] {} too many connections (the server serves 100 at once)")
            #expect(refused.isClosed())
        }
        #expect(try served[99].command("ping") == ["OK"])
        // A closed connection frees its place.
        served.removeLast(10)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try RawClient(port: server.port).greetingLine == "OK MPD 0.23.5")
    }

    /// CPU ticks (user + system, 1/100 s) the server has used.
    static func cpuTicks(_ server: ServeProcess) -> Int {
        let stat = (try? String(contentsOfFile: "/proc/\(server.process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        // Fields after the command name in parentheses: utime and stime are the 12th and 13th.
        let fields = stat[(stat.lastIndex(of: ")").map { stat.index(after: $0) } ?? stat.startIndex)...].split(separator: " ")
        guard fields.count > 12 else { return 0 }
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// Out of file descriptors, accept fails (EMFILE): the server waits before it tries again instead
    /// of spinning (it used 70% of a core), and the clients it has go on being answered.
    @Test(.enabled(if: toolExists("prlimit"))) func acceptFailingDoesNotSpin() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library, extra: ["--max-connections", "1000"])
        defer { server.stop() }
        let first = try RawClient(port: server.port)
        let limit = try run("prlimit", ["--pid", String(server.process.processIdentifier), "--nofile=64:64"])
        #expect(limit.status == 0, "\(limit.err)")
        var clients: [RawClient] = []
        for _ in 0..<80 { if let c = try? RawClient(port: server.port) { clients.append(c) } }
        // Those past the descriptors are told why and closed (the reserve descriptor is given up for them).
        let refused = clients.filter { $0.greetingLine.hasPrefix("ACK") }
        #expect(!refused.isEmpty && refused.allSatisfy { $0.greetingLine == "ACK [5@0] {} the server has no file descriptor left" })
        Thread.sleep(forTimeInterval: 0.5)
        let before = Self.cpuTicks(server)
        Thread.sleep(forTimeInterval: 2)
        let used = Self.cpuTicks(server) - before
        #expect(used < 40, "\(used) ticks of CPU in 2 s with accept failing")
        #expect(try first.command("ping") == ["OK"])
        #expect(server.process.isRunning)
    }
}
