import Foundation
import TestSupport
import Testing

/// Every DLNA route with hostile input (`Scripts/fuzz_dlna.py dlna`, some thousands of requests from the
/// client namespace): SOAP control with malformed, oversized and garbage XML (external and nested
/// entities included), every Browse and Search argument, SUBSCRIBE/UNSUBSCRIBE with bad headers, Range
/// edge cases, unknown object ids, hostile ids on `/media/`, `/transcode/`, `/thumb/`, `/subtitle/` and
/// `/art/`, and malformed HTTP. No crash, no 5xx for malformed input (UPnP's own faults aside), and no answer
/// holds the marker written into files outside the roots — two of them reached by symlinks inside.
@Suite(.serialized, .enabled(if: VethLab.unavailableReason == nil, Comment(rawValue: VethLab.unavailableReason ?? "")))
struct DLNAFuzzTests {
    struct Summary: Decodable {
        var requests: Int
        var status: [String: Int]
        var failures: [[String: String]]
    }

    @Test func hostileRequestsOnEveryRoute() throws {
        let scratch = try ScratchLibrary("mlib-dlna")
        defer { scratch.remove() }
        let base = scratch.base, music = scratch.media
        let fixtures = ChildProcess.repo.appendingPathComponent("Fixtures")
        for name in ["mp3-id3v24.mp3", "mp3-notags.mp3", "flac-vorbis-cover.flac", "m4a-aac-cover.m4a", "video-h264-aac.mp4"] {
            try scratch.copyFixture(name, as: "sub/" + name)
        }
        try Data("1\n00:00:00,000 --> 00:00:01,000\nwithin\n".utf8).write(to: music.appendingPathComponent("sub/video-h264-aac.srt"))
        // Outside the roots: an mp3 and a text file, each holding the marker; a symlink in the roots to each
        // (the scanner lists a link's tags; no route may send what it points at).
        let marker = "OUTSIDE-THE-ROOTS-\(UUID().uuidString)"
        var outside = try Data(contentsOf: fixtures.appendingPathComponent("mp3-id3v23.mp3"))
        outside.append(Data(marker.utf8))
        try outside.write(to: base.appendingPathComponent("outside.mp3"))
        let secret = base.appendingPathComponent("secret.txt")
        try Data(marker.utf8).write(to: secret)
        try FileManager.default.createSymbolicLink(at: music.appendingPathComponent("link.mp3"), withDestinationURL: base.appendingPathComponent("outside.mp3"))
        try FileManager.default.createSymbolicLink(at: music.appendingPathComponent("sub/mp3-notags.srt"), withDestinationURL: secret)
        try scratch.scan()
        let environment = scratch.environment
        let lab = try VethLab()
        defer { lab.close() }
        let server = try lab.serveDLNA(environment: environment)
        defer { server.stop() }
        let script = ChildProcess.repo.appendingPathComponent("Tests/DLNAServerTests/Scripts/fuzz_dlna.py").path
        let run = try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, ["python3", script, "dlna", "http://\(lab.serverAddress):\(server.port)",
                                                                             marker, secret.absoluteString]))
        guard let summary = try? JSONDecoder().decode(Summary.self, from: run.stdout) else {
            Issue.record("the fuzzer stopped: \(run.stderr.suffix(3000)) \(run.out.suffix(2000))")
            return
        }
        print("DLNA fuzz: \(summary.requests) requests, statuses \(summary.status)")
        #expect(summary.failures.isEmpty, "\(summary.failures.prefix(8))")
        #expect(summary.requests > 2400)
        #expect(server.stop() == 0, "the server was still running and stops cleanly")
    }
}
