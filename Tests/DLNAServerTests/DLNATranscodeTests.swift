import Foundation
import TestSupport
import Testing

/// Transcoding for renderers (issue 43, second round), in the two-namespace lab: a FLAC at 96 kHz gets LPCM
/// (48 kHz, `audio/L16`) and MP3 `res` after its own for an unknown renderer and before it for a PS3; an MP3
/// gets none. curl in the other namespace fetches both transcodes, chunked, with DLNA.ORG_OP=00 and CI=1, and
/// ffprobe reads each at the file's length (±0.1 s). With `--dlna-transcodes 1`, a second transcode while
/// a slow client holds the first gets 503 with Retry-After, and the slot comes back once that client goes.
@Suite(.serialized, .enabled(if: VethLab.unavailableReason == nil, Comment(rawValue: VethLab.unavailableReason ?? "")))
struct DLNATranscodeTests {
    static let seconds = 120.0

    @Test func aFLACIsOfferedAndStreamedAsLPCMAndMP3WithinTheTranscodeLimit() throws {
        let scratch = try ScratchLibrary("mlib-dlna-transcode")
        defer { scratch.remove() }
        let base = scratch.base, music = scratch.media
        _ = try ReadingRoundThreeFiles.ffmpeg(music, "hires.flac", seconds: Self.seconds, ["-ar", "96000", "-ac", "2", "-metadata", "title=Hires"])
        try scratch.copyFixture("mp3-id3v24.mp3", as: "a.mp3")
        try scratch.scan()
        let environment = scratch.environment
        let lab = try VethLab()
        defer { lab.close() }
        let server = try lab.serveDLNA(environment: environment, ["--dlna-transcodes", "1"])
        defer { server.stop() }
        func clientRun(_ arguments: [String]) throws -> ChildProcess.Output {
            try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, arguments))
        }
        let url = "http://\(lab.serverAddress):\(server.port)"

        // The DIDL of All Tracks, as a renderer with this User-Agent gets it, unescaped.
        func allTracks(userAgent: String) throws -> String {
            let body = """
                <?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>\
                <u:Browse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"><ObjectID>1$all</ObjectID><BrowseFlag>BrowseDirectChildren</BrowseFlag>\
                <Filter>*</Filter><StartingIndex>0</StartingIndex><RequestedCount>0</RequestedCount><SortCriteria>+dc:title</SortCriteria>\
                </u:Browse></s:Body></s:Envelope>
                """
            let out = try clientRun(["curl", "-s", "-A", userAgent, "-H", "Content-Type: text/xml",
                                     "-H", "SOAPACTION: \"urn:schemas-upnp-org:service:ContentDirectory:1#Browse\"",
                                     "--data-binary", body, url + "/ContentDirectory/control"]).out
            return out.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        }
        // Each item's res, in order: (protocolInfo, URL).
        func resources(_ didl: String) -> [String: [(info: String, url: String)]] {
            var out: [String: [(String, String)]] = [:]
            for item in didl.components(separatedBy: "<item ").dropFirst() {
                let title = item.components(separatedBy: "<dc:title>").dropFirst().first?.components(separatedBy: "<").first ?? ""
                out[title] = item.components(separatedBy: "<res ").dropFirst().map { res in
                    let info = res.components(separatedBy: "protocolInfo=\"").dropFirst().first?.components(separatedBy: "\"").first ?? ""
                    let link = res.components(separatedBy: ">").dropFirst().first?.components(separatedBy: "</res").first ?? ""
                    return (info, link)
                }
            }
            return out
        }

        let standard = resources(try allTracks(userAgent: "SomeRenderer/1.0"))
        let flac = try #require(standard["Hires"], "\(standard.keys)")
        #expect(flac.map(\.info) == ["http-get:*:audio/flac:DLNA.ORG_OP=01;DLNA.ORG_CI=0;DLNA.ORG_FLAGS=01700000000000000000000000000000",
                                     "http-get:*:audio/L16;rate=48000;channels=2:DLNA.ORG_PN=LPCM;DLNA.ORG_OP=00;DLNA.ORG_CI=1;DLNA.ORG_FLAGS=01700000000000000000000000000000",
                                     "http-get:*:audio/mpeg:DLNA.ORG_PN=MP3;DLNA.ORG_OP=00;DLNA.ORG_CI=1;DLNA.ORG_FLAGS=01700000000000000000000000000000"])
        #expect(flac.count == 3 && flac[1].url.hasSuffix(".lpcm") && flac[2].url.hasSuffix(".mp3") && flac[1].url.contains("/transcode/"))
        // An MP3 plays anywhere: its own res only.
        #expect(standard.count == 2 && standard.values.filter { $0.count == 1 }.count == 1)
        // A PS3 (its User-Agent) gets the transcodes first.
        let ps3 = resources(try allTracks(userAgent: "PLAYSTATION 3"))
        #expect(ps3["Hires"]?.map(\.url) == [flac[1].url, flac[2].url, flac[0].url])
        guard flac.count == 3 else { return }

        // Both transcodes, whole: chunked, DLNA's headers, and ffprobe's length.
        func fetch(_ link: String, to name: String) throws -> (headers: String, file: URL) {
            let file = base.appendingPathComponent(name), head = base.appendingPathComponent(name + ".head")
            let run = try clientRun(["curl", "-s", "-S", "-D", head.path, "-o", file.path, "-H", "transferMode.dlna.org: Streaming", link])
            #expect(run.status == 0, "\(run.stderr)")
            return ((try? String(contentsOf: head, encoding: .utf8)) ?? "", file)
        }
        func probedSeconds(_ arguments: [String]) throws -> Double {
            let run = try ChildProcess.run("ffprobe", ["-v", "error"] + arguments + ["-show_entries", "format=duration", "-of", "csv=p=0"])
            return Double(run.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let lpcm = try fetch(flac[1].url, to: "out.pcm")
        #expect(lpcm.headers.lowercased().contains("content-type: audio/l16;rate=48000;channels=2"), "\(lpcm.headers)")
        #expect(lpcm.headers.lowercased().contains("transfer-encoding: chunked"), "\(lpcm.headers)")
        #expect(lpcm.headers.contains("DLNA.ORG_PN=LPCM;DLNA.ORG_OP=00;DLNA.ORG_CI=1"), "\(lpcm.headers)")
        let lpcmSeconds = try probedSeconds(["-f", "s16be", "-ar", "48000", "-ac", "2", lpcm.file.path])
        #expect(abs(lpcmSeconds - Self.seconds) <= 0.1, "LPCM lasts \(lpcmSeconds) s")
        // Big-endian 16-bit: lavfi's sine has amplitude 1/8, and ffmpeg's mono-to-stereo mix puts it in each
        // side at −3 dB, so an RMS of 1/16 of full scale; read little-endian the same bytes would be noise
        // near full scale.
        let bytes = try Data(contentsOf: lpcm.file).prefix(48_000 * 4)
        let samples = stride(from: 0, to: bytes.count - 1, by: 2).map { Double(Int16(bitPattern: UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]))) / 32_768 }
        let rms = (samples.map { $0 * $0 }.reduce(0, +) / Double(max(1, samples.count))).squareRoot()
        #expect(abs(rms - 0.0625) < 0.003, "RMS \(rms)")
        let mp3 = try fetch(flac[2].url, to: "out.mp3")
        #expect(mp3.headers.lowercased().contains("content-type: audio/mpeg"), "\(mp3.headers)")
        let mp3Seconds = try probedSeconds([mp3.file.path])
        #expect(abs(mp3Seconds - Self.seconds) <= 0.1, "MP3 lasts \(mp3Seconds) s")
        let bitRate = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=bit_rate", "-of", "csv=p=0", mp3.file.path]).out
        #expect(bitRate.trimmingCharacters(in: .whitespacesAndNewlines) == "320000")

        // The limit: a slow client (16 KB/s against LPCM's 192 KB/s) holds the one slot…
        let slow = try SpawnedProcess(VethLab.ip, lab.exec(in: lab.client, ["curl", "-s", "--limit-rate", "16k", "-o", "/dev/null", flac[1].url]),
                                      stdout: .pipe, stderr: .pipe)
        Thread.sleep(forTimeInterval: 1)
        #expect(slow.isRunning)
        // …so a second transcode waits 2 s for it and gets 503 with Retry-After.
        let refused = try clientRun(["curl", "-s", "-D", "-", "-o", "/dev/null", "-w", "%{http_code}\n", flac[2].url]).out
        #expect(refused.hasSuffix("503\n"), "\(refused)")
        #expect(refused.lowercased().contains("retry-after: 5"), "\(refused)")
        // The file itself is no transcode: served meanwhile.
        #expect(try clientRun(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", flac[0].url]).out == "200")
        // Once the slow client goes, the slot is given back.
        slow.signal(SIGKILL)
        slow.waitUntilExit()
        let freed = Poll.until(timeout: 40) {
            (try? clientRun(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", flac[2].url]).out) == "200"
        }
        #expect(freed, "the slot stayed taken after its client went")
        #expect(server.stop() == 0)
    }
}
