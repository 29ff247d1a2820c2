import Foundation
import TestSupport
import Testing

/// A TV streams a file at the pace it plays it: the server's write timeout (`--dlna-write-timeout`) is for a
/// client that takes nothing, not for an answer that takes longer than the timeout to send. With a timeout of
/// one second, a client in the other namespace with a small receive buffer reads a 10.6 MB WAV at about
/// 2.6 MB/s (four seconds, most of them with the server's socket buffer full) and gets every byte; a client
/// that asks for it and then reads nothing has its connection closed long before the file could have been sent.
/// And with the server's send buffer capped at 1 MiB, a client reading 16 KiB every 64 ms (250 KB/s) keeps its
/// stream for eight seconds: the kernel lets the server write again only once a third of that buffer is free
/// (1.4 s at that pace, longer than the timeout), and the watch asks the kernel what the client acknowledged
/// meanwhile (the client's window opens every 64 KiB or so: a quarter of a second).
@Suite(.serialized, .enabled(if: VethLab.unavailableReason == nil, Comment(rawValue: VethLab.unavailableReason ?? "")))
struct DLNASlowReaderTests {
    @Test func aStreamReadAtItsPaceOutlastsTheWriteTimeoutAndAStalledOneDoesNot() throws {
        let scratch = try ScratchLibrary("mlib-dlna-slow")
        defer { scratch.remove() }
        // A minute of 44.1 kHz stereo 16-bit: 10.6 MB, more than the two socket buffers hold.
        let wav = try ReadingRoundThreeFiles.ffmpeg(scratch.media, "long.wav", seconds: 60, ["-ac", "2", "-metadata", "title=Long"])
        try scratch.scan()
        let lab = try VethLab()
        defer { lab.close() }
        let server = try lab.serveDLNA(environment: scratch.environment, ["--dlna-write-timeout", "1"])
        defer { _ = server.stop() }
        func clientRun(_ arguments: [String]) throws -> ChildProcess.Output {
            try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, arguments))
        }
        let base = "http://\(lab.serverAddress):\(server.port)"
        let browse = """
            <?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>\
            <u:Browse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"><ObjectID>1$all</ObjectID><BrowseFlag>BrowseDirectChildren</BrowseFlag>\
            <Filter>*</Filter><StartingIndex>0</StartingIndex><RequestedCount>10</RequestedCount><SortCriteria></SortCriteria>\
            </u:Browse></s:Body></s:Envelope>
            """
        let answer = try clientRun(["curl", "-s", "-H", "Content-Type: text/xml",
                                    "-H", "SOAPACTION: \"urn:schemas-upnp-org:service:ContentDirectory:1#Browse\"",
                                    "--data-binary", browse, base + "/ContentDirectory/control"]).out
        let link = try #require(answer.components(separatedBy: "&gt;http://").dropFirst().first?.components(separatedBy: "&lt;").first,
                                "no res URL in \(answer.prefix(600))").replacingOccurrences(of: "&amp;", with: "&")
        let url = "http://" + link
        #expect(url.hasSuffix(".wav"), "\(url)")

        let path = try #require(URL(string: url)).path
        let original = try Data(contentsOf: wav)
        func read(wait: Double, pause: Double, chunk: Int = 64 << 10, limit: Int = 1 << 62, into name: String) throws -> (bytes: Data, seconds: Double) {
            let out = scratch.base.appendingPathComponent(name)
            let run = try PacedReader.read(in: lab, port: server.port, path: path, wait: wait, pause: pause, chunk: chunk, limit: limit, into: out)
            #expect(run.ran, "\(run.diagnostics)")
            return ((try? Data(contentsOf: out)) ?? Data(), run.seconds)
        }

        // At its pace: 64 KiB every 25 ms, four times the write timeout.
        let paced = try read(wait: 0, pause: 0.025, into: "paced.wav")
        #expect(paced.bytes.count == original.count && paced.bytes == original,
                "\(paced.bytes.count) of \(original.count) bytes in \(paced.seconds) s")
        #expect(paced.seconds > 2, "the read was not slow: \(paced.seconds) s")

        // Stalled: nothing read for five seconds, then what the buffers held, at once, and the end.
        let stalled = try read(wait: 5, pause: 0, into: "stalled.wav")
        #expect(stalled.bytes.count < original.count, "a stalled client was sent every byte")
        #expect(stalled.seconds < 2, "the connection was still open: \(stalled.seconds) s to its end")

        // Slowly, from a server whose send buffer is capped: 16 KiB every 64 ms for eight seconds.
        try lab.limitSendBuffer(in: lab.server, to: 1 << 20)
        let slow = try read(wait: 0, pause: 0.064, chunk: 16 << 10, limit: 2_000_000, into: "slow.wav")
        #expect(slow.bytes.count >= 1_990_000, "a slow reader was dropped after \(slow.bytes.count) bytes, \(slow.seconds) s")
        #expect(server.stop() == 0)
    }
}
