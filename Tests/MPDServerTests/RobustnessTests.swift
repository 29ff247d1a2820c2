import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Hostile or careless clients get an ACK or a closed connection, never a crash; many clients at once
/// leave the server responsive. Loopback only, bounded loops.
@Suite(.serialized, .enabled(if: toolExists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct RobustnessTests {
    @Test func malformedInputGetsAnAckOrAClose() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }

        // A 1 MiB line: the connection is closed (MPD closes when its input buffer fills).
        let long = try RawClient(port: server.port)
        #expect(long.greetingLine == "OK MPD 0.23.5")
        try? long.send(Array(repeating: UInt8(ascii: "a"), count: 1 << 20) + [UInt8(ascii: "\n")])
        #expect(long.isClosed())

        // Invalid UTF-8: an ACK, and the connection goes on.
        let bad = try RawClient(port: server.port)
        try bad.send([0x66, 0x69, 0x6E, 0x64, 0x20, 0xFF, 0xFE, 0x0A])
        let answer = try bad.answer()
        #expect(answer.count == 1 && answer[0].hasPrefix("ACK [2@0] {} "))
        #expect(try bad.command("ping") == ["OK"])

        // Unknown commands, wrong argument counts, unclosed quotes: MPD's ACK lines.
        #expect(try bad.command("frobnicate") == ["ACK [5@0] {} unknown command \"frobnicate\""])
        #expect(try bad.command("ping x") == ["ACK [2@0] {ping} wrong number of arguments for \"ping\""])
        #expect(try bad.command("find") == ["ACK [2@0] {find} too few arguments for \"find\""])
        #expect(try bad.command("find \"artist") == ["ACK [5@0] {} Missing closing '\"'"])
        #expect(try bad.command("play 99") == ["ACK [2@0] {play} Bad song index"])

        // `noidle` when not idling has no answer at all (ncmpcpp sends idle/noidle in a race and counts on it).
        try bad.send(Array("noidle\n".utf8))
        #expect(try bad.command("ping") == ["OK"])

        // A command list stops at the first error and names its index.
        try bad.send(Array("command_list_ok_begin\nping\nstatus\nfrobnicate\nping\ncommand_list_end\n".utf8))
        let list = try bad.answer()
        #expect(list.filter { $0 == "list_OK" }.count == 2)
        #expect(list.last == "ACK [5@2] {} unknown command \"frobnicate\"")

        // Disconnecting in the middle of a command (no newline) and of a command list.
        for partial in ["status", "command_list_begin\nadd Long\n"] {
            let quitter = try RawClient(port: server.port)
            try quitter.send(Array(partial.utf8))
        }
        // An upper-case command name is malformed: MPD closes the connection.
        let shouting = try RawClient(port: server.port)
        try shouting.send(Array("PING\n".utf8))
        #expect(shouting.isClosed())

        // Still serving, and nothing from the half-sent list was run.
        let check = try RawClient(port: server.port)
        #expect(try check.command("status").contains("playlistlength: 0"))
        #expect(server.process.isRunning)
    }

    /// 20 connections each issuing a mix of reads and queue edits in a bounded loop, then one more
    /// client must still be answered at once.
    @Test func manyClientsAtOnce() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }

        let clients = 20, rounds = 40
        let failures = Failures()
        let group = DispatchGroup()
        for n in 0..<clients {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let client = try RawClient(port: server.port)
                    for round in 0..<rounds {
                        let commands = ["status", "currentsong", "lsinfo Album1", "search any fix",
                                        "add Album1/flac-vorbis-cover.flac", "playlistinfo", "plchanges 0",
                                        "list album group artist", "stats", "deleteid \(n * rounds + round + 1)"]
                        let answer = try client.command(commands[round % commands.count])
                        if let last = answer.last, last != "OK", !last.hasPrefix("ACK [50@0] {deleteid}") {
                            failures.add("\(commands[round % commands.count]): \(last)")
                        }
                    }
                } catch {
                    failures.add("\(error)")
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(failures.all.isEmpty, "\(failures.all.prefix(5))")

        let start = Date()
        let late = try RawClient(port: server.port)
        #expect(try late.command("ping") == ["OK"])
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(server.stop() == 0)
    }
}

final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.withLock { list.append(s) } }
    var all: [String] { lock.withLock { list } }
}
