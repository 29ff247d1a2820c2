import Foundation
import TestSupport
import Testing

/// Videos' stills are made off the answering thread: while first stills are being made (tens of
/// milliseconds each), a Browse is answered. Held by a count, not a time: eight stills are asked for at
/// once, the Browse is sent when the first still has come back, and fewer than all eight may come back
/// before it (answered on one thread, the Browse waited behind the seven still queued).
@Suite(.serialized, .enabled(if: VethLab.unavailableReason == nil, Comment(rawValue: VethLab.unavailableReason ?? "")),
       .enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct DLNAStillsTests {
    /// Asks for every video's still at once; when the first comes back, Browses `0`; prints how many stills
    /// had come back before the Browse's answer, and every status.
    static let client = """
        import http.client, json, re, sys, threading
        host, port = sys.argv[1], int(sys.argv[2])
        def browse(object_id):
            body = ('<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>'
                    '<u:Browse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"><ObjectID>%s</ObjectID>'
                    '<BrowseFlag>BrowseDirectChildren</BrowseFlag><Filter>*</Filter><StartingIndex>0</StartingIndex>'
                    '<RequestedCount>0</RequestedCount><SortCriteria></SortCriteria></u:Browse></s:Body></s:Envelope>') % object_id
            c = http.client.HTTPConnection(host, port, timeout=300)
            c.request("POST", "/ContentDirectory/control", body, {"Content-Type": 'text/xml; charset="utf-8"',
                      "SOAPACTION": '"urn:schemas-upnp-org:service:ContentDirectory:1#Browse"'})
            r = c.getresponse()
            return r.status, r.read().decode()
        ids = sorted(set(re.findall(r"/thumb/(\\d+)\\.jpg", browse("2$all")[1])))
        lock, first, done = threading.Lock(), threading.Event(), []
        def still(i):
            c = http.client.HTTPConnection(host, port, timeout=300)
            c.request("GET", "/thumb/%s.jpg" % i)
            r = c.getresponse()
            data = r.read()
            with lock:
                done.append((r.status, data[:2] == b"\\xff\\xd8"))
            first.set()
        threads = [threading.Thread(target=still, args=(i,)) for i in ids]
        for t in threads:
            t.start()
        first.wait()
        status, text = browse("0")
        with lock:
            before = len(done)
        for t in threads:
            t.join()
        print(json.dumps({"videos": len(ids), "stillsBeforeBrowse": before, "browse": status, "root": "<TotalMatches>3</TotalMatches>" in text,
                          "stills": [s for s, _ in done], "jpegs": sum(1 for _, j in done if j)}))
        """

    struct Report: Decodable {
        var videos: Int
        var stillsBeforeBrowse: Int
        var browse: Int
        var root: Bool
        var stills: [Int]
        var jpegs: Int
    }

    @Test func aBrowseIsAnsweredWhileStillsAreBeingMade() throws {
        let scratch = try ScratchLibrary("mlib-dlna", media: "videos")
        defer { scratch.remove() }
        let base = scratch.base, videos = scratch.media
        // 720p with one key frame in 10 s: the still (a tenth of the way in) decodes 25 frames first, so each
        // takes a while; eight copies are eight items, eight stills.
        let film = base.appendingPathComponent("film.mp4")
        let make = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=1280x720:r=25:d=10", "-c:v", "libx264",
                                                   "-preset", "ultrafast", "-g", "250", "-pix_fmt", "yuv420p", film.path])
        #expect(make.status == 0, "\(make.stderr)")
        for n in 1...8 { try FileManager.default.copyItem(at: film, to: videos.appendingPathComponent("film-\(n).mp4")) }
        try scratch.scan()
        let environment = scratch.environment
        let lab = try VethLab()
        defer { lab.close() }
        let server = try lab.serveDLNA(environment: environment)
        defer { server.stop() }
        let run = try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, ["python3", "-c", Self.client, lab.serverAddress, String(server.port)]))
        let report = try JSONDecoder().decode(Report.self, from: run.stdout)
        print("stills: \(report)")
        #expect(report.videos == 8)
        #expect(report.browse == 200 && report.root)
        #expect(report.stills == Array(repeating: 200, count: 8) && report.jpegs == 8)
        #expect(report.stillsBeforeBrowse < report.videos, "the Browse waited for every still: \(report.stillsBeforeBrowse) of \(report.videos) came back first")
        #expect(server.stop() == 0)
    }
}
