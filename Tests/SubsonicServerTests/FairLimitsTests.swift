import Foundation
import TestSupport
import Testing

/// `mlib serve --http` under clients that hold its connections and slots (issue 37): each leaves another
/// client answered within a second. Clients: Scripts/hostile_clients.py (bounded loops, loopback only)
/// and curl.
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg") && ChildProcess.exists("curl") && ChildProcess.exists("python3"),
                             "ffmpeg, curl or python3 missing (scripts/install-deps.sh)"))
struct FairLimitsTests {
    static let script = Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/hostile_clients.py")

    /// A hostile_clients.py run in the background, once it says it holds its connections.
    final class Clients {
        let process: SpawnedProcess
        private let output: FileHandle
        var lines: [String] = []

        init(_ arguments: [String]) throws {
            process = try SpawnedProcess("python3", [FairLimitsTests.script.path] + arguments, stdout: .pipe, stderr: .inherit)
            output = process.standardOutput!
            var text = ""
            while !text.contains("ready\n") {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            lines = text.split(separator: "\n").map(String.init)
            guard text.contains("ready\n") else { throw TestFailure("hostile_clients.py \(arguments): \(text)") }
        }

        /// Waits for the end of its bounded run; the lines it printed after "ready".
        func finish() -> [String] {
            let rest = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return rest.split(separator: "\n").map(String.init)
        }
    }

    /// curl's status and seconds to the first byte of the answer (at most `maxTime` s spent).
    static func curl(_ url: String, maxTime: Int = 5) throws -> (status: Int, firstByte: Double) {
        let run = try ChildProcess.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code} %{time_starttransfer}", "--max-time", String(maxTime), url])
        let parts = run.out.split(separator: " ")
        return (Int(parts.first ?? "") ?? 0, Double(parts.last ?? "") ?? .infinity)
    }

    @Test func slowAndIdleConnectionsLeaveAnotherClientAnsweredWithinASecond() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let ping = "\(server.base)/ping?f=json&\(BothServeProcess.auth)"

        // 80 connections sending a header byte a second.
        let loris = try Clients(["slowloris", String(server.port), "80", "12"])
        for _ in 0..<3 {
            let answer = try Self.curl(ping)
            #expect(answer.status == 200 && answer.firstByte < 1, "ping beside 80 slowloris connections: \(answer)")
            Thread.sleep(forTimeInterval: 1)
        }
        // 70 connections that send nothing (more than the 64 allowed in all).
        let idle = try Clients(["idle", String(server.port), "70", "6"])
        for _ in 0..<3 {
            let answer = try Self.curl(ping)
            #expect(answer.status == 200 && answer.firstByte < 1, "ping beside 70 idle connections: \(answer)")
            Thread.sleep(forTimeInterval: 0.5)
        }
        let lorisEnd = loris.finish(), idleEnd = idle.finish()
        // Every slowloris connection was closed within its read timeout (5 s), long before its 12 s ended.
        #expect(lorisEnd.last == "closed 80", "slowloris connections closed by the server: \(lorisEnd)")
        print("slowloris: \(lorisEnd), idle: \(idleEnd)")
        #expect(server.stop() == 0)
    }

    /// A player skipping songs closes each transcoded stream and asks for the next at once, before the
    /// server has seen the close: with one slot per user (two in all), the next stream got 503 (found by
    /// Benchmarks/subsonic-bench.py's dropped streams).
    @Test func aPlayerSkippingSongsGetsEachNextStream() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let song = library.music.appendingPathComponent("minute.flac").path
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=60", "-ac", "2", song])
        try #require(made.status == 0, "\(made.stderr)")
        try #require(try mlib(["scan", "--library", library.library, "-q", library.music.path]).status == 0)
        let id = try #require(try HostileRequestTests.ids(library)["minute.flac"])
        let server = try HTTPServeProcess(library: library, extra: ["--http-transcodes", "2"])
        defer { server.stop() }
        let skipping = try Clients(["skip", String(server.port), "6", "/rest/stream?id=\(id)&format=opus&\(BothServeProcess.auth)"])
        let statuses = skipping.finish()
        #expect(statuses == Array(repeating: "status HTTP/1.1 200 OK", count: 6), "each next song's stream: \(statuses)")
        #expect(server.stop() == 0)
    }

    @Test func stalledTranscodesOfOneUserLeaveAnotherUserASlot() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        // A long song (20 minutes: its stream cannot fit in socket buffers), and a second user.
        let long = library.music.appendingPathComponent("long.flac").path
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1200", "-ac", "2", long])
        try #require(made.status == 0, "\(made.stderr)")
        try #require(try mlib(["scan", "--library", library.library, "-q", library.music.path]).status == 0)
        try #require(try mlib(["user", "add", "bob", "--password", "bobpass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        let id = try #require(try HostileRequestTests.ids(library)["long.flac"])

        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let bob = "/rest/stream?id=\(id)&format=mp3&maxBitRate=320&u=bob&p=bobpass&c=test&v=1.16.1"
        // Two streams bob stops reading (a second transcode would need more slots than one user gets).
        let started = ContinuousClock.now
        let stalled = try Clients(["stall", String(server.port), "25", bob, bob])
        print("bob's streams: \(stalled.lines)")
        let alice = try Self.curl("\(server.base)/stream?id=\(id)&format=mp3&maxBitRate=128&\(BothServeProcess.auth)", maxTime: 3)
        #expect(alice.status == 200 && alice.firstByte < 1, "alice's stream beside bob's two stalled ones: \(alice)")
        // Bob's stalled stream is dropped by the write timeout (15 s): his slot is free again, though his
        // client still holds its socket.
        Thread.sleep(until: Date().addingTimeInterval(19 - Double((ContinuousClock.now - started).components.seconds)))
        let again = try Self.curl("http://127.0.0.1:\(server.port)\(bob)", maxTime: 3)
        #expect(again.status == 200 && again.firstByte < 1, "bob's next stream once the stalled one was dropped: \(again)")
        _ = stalled.finish()
        #expect(server.stop() == 0)
    }
}
