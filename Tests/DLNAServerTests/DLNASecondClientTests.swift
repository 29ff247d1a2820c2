import Foundation
import TestSupport
import Testing

/// A second real control point beside async-upnp-client, from other code bases: GSSDP (gupnp-tools'
/// `gssdp-discover`, GNOME's SSDP stack) finds the server from the other namespace, and VLC (`cvlc`, headless:
/// dummy interface, audio and video outputs) plays the video and a track by the URLs the server's Browse
/// answer gives — VLC's demuxers and decoders open what mlib serves, to the end. VLC's own UPnP browser
/// (`upnp://`) is not used: its libupnp sends no Browse from inside a network namespace here (no connection is
/// made, against minidlna as against mlib), so it would test the namespace, not the server.
@Suite(.serialized,
       .enabled(if: VethLab.unavailableReason == nil, Comment(rawValue: VethLab.unavailableReason ?? "")),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cvlc") && FileManager.default.isExecutableFile(atPath: "/usr/bin/gssdp-discover"),
                "VLC (vlc-bin, vlc-plugin-base) or gupnp-tools missing (scripts/install-deps.sh)"))
struct DLNASecondClientTests {
    @Test
    func gssdpFindsTheServerAndVLCPlaysWhatItsBrowseAnswerOffers() throws {
        let scratch = try ScratchLibrary("mlib-dlna2")
        defer { scratch.remove() }
        let base = scratch.base, music = scratch.media
        // VLC refuses to run as root: it runs as nobody, with a home of its own it can write.
        let vlcHome = base.appendingPathComponent("vlc-home")
        try FileManager.default.createDirectory(at: vlcHome, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: vlcHome.path)
        for name in ["video-h264-aac.mp4", "flac-vorbis-cover.flac"] { try scratch.copyFixture(name) }
        // Sidecar subtitles beside the video, as a Samsung TV finds them (a res, sec:CaptionInfoEx, CaptionInfo.sec).
        let captions = "1\n00:00:00,000 --> 00:00:00,900\nHello from the sidecar\n"
        try captions.write(to: music.appendingPathComponent("video-h264-aac.srt"), atomically: true, encoding: .utf8)
        try scratch.scan()
        let environment = scratch.environment

        let lab = try VethLab()
        defer { lab.close() }
        let server = try lab.serveDLNA(environment: environment, ["--dlna-name", "Second client"])
        defer { server.stop() }
        let location = "http://\(lab.serverAddress):\(server.port)/description.xml"

        // GSSDP: an M-SEARCH for the MediaServer type from the client's namespace is answered with our location.
        let discover = try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, ["gssdp-discover", "-i", "eth0", "-t",
                                                                                 "urn:schemas-upnp-org:device:MediaServer:1", "-n", "3"]))
        #expect(discover.out.contains("resource available") && discover.out.contains("Location: \(location)"), "\(discover.out)\(discover.stderr)")

        // The stream URLs come from a Browse of All Videos and All Tracks, as a renderer gets them.
        func browse(_ id: String) throws -> [String] {
            let body = """
                <?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" \
                s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body><u:Browse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1">\
                <ObjectID>\(id)</ObjectID><BrowseFlag>BrowseDirectChildren</BrowseFlag><Filter>*</Filter><StartingIndex>0</StartingIndex>\
                <RequestedCount>10</RequestedCount><SortCriteria></SortCriteria></u:Browse></s:Body></s:Envelope>
                """
            let answer = try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, [
                "curl", "-sf", "-H", #"Content-Type: text/xml; charset="utf-8""#,
                "-H", #"SOAPACTION: "urn:schemas-upnp-org:service:ContentDirectory:1#Browse""#, "--data", body,
                "http://\(lab.serverAddress):\(server.port)/ContentDirectory/control"]))
            // The DIDL-Lite document is escaped once inside <Result>: a res's text is `&gt;http://…&lt;/res&gt;`.
            let pattern = try Regex(#"&gt;(http://[^&]+)&lt;/res&gt;"#)
            return answer.out.matches(of: pattern).map { String(answer.out[$0.range].dropFirst(4).dropLast(12)) }
        }
        let video = try #require(try browse("2$all").first { $0.contains("/media/") })
        let subtitle = try #require(try browse("2$all").first { $0.hasSuffix(".srt") })
        let head = try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, ["curl", "-sf", "-o", "/dev/null", "-D", "-", "-H", "getCaptionInfo.sec: 1", video]))
        #expect(head.out.lowercased().contains("captioninfo.sec: \(subtitle.lowercased())"), "\(head.out)")
        let fetched = try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, ["curl", "-sf", subtitle]))
        #expect(fetched.status == 0 && fetched.out == captions, "\(fetched.out)")
        let track = try #require(try browse("1$all").first { $0.contains("/media/") })

        for (url, demuxer, decoder) in [(video, "mp4", "codec (h264) started"), (track, "flacsys", "using audio decoder module \"flac\"")] {
            let vlc = try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, [
                "env", "HOME=\(vlcHome.path)", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "cvlc", "-I", "dummy", "-A", "dummy", "--vout", "dummy", "--no-media-library", "--play-and-exit", "-vv", url]))
            let log = vlc.out + vlc.stderr
            #expect(vlc.status == 0, "\(log.suffix(2000))")
            #expect(log.contains("`\(url)' successfully opened"), "\(url): \(log.suffix(2000))")
            #expect(log.contains("using demux module \"\(demuxer)\""), "\(url): \(log.suffix(2000))")
            #expect(log.contains(decoder), "\(url): \(log.suffix(2000))")
            #expect(log.contains("EOF reached"), "\(url): played to the end: \(log.suffix(2000))")
            #expect(!log.contains("main input error"), "\(url): \(log.suffix(2000))")
        }
        #expect(server.stop() == 0)
    }
}
