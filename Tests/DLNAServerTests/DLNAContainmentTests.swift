import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// What the DLNA server does not do: answer SSDP searches from outside the subnets of the interfaces it was
/// given, listen beyond their addresses, hand out a file by a path in the request, or take malformed
/// calls without UPnP's error codes.
@Suite(.serialized, .enabled(if: VethLab.unavailableReason == nil, Comment(rawValue: VethLab.unavailableReason ?? "")))
struct DLNAContainmentTests {
    /// Sends one M-SEARCH from `source` and prints the number of answers within a second.
    static let search = """
        import socket, sys
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind((sys.argv[1], 0))
        s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(sys.argv[1]))
        s.settimeout(1)
        s.sendto(b'M-SEARCH * HTTP/1.1\\r\\nHOST: 239.255.255.250:1900\\r\\nMAN: "ssdp:discover"\\r\\nMX: 1\\r\\nST: ssdp:all\\r\\n\\r\\n', ("239.255.255.250", 1900))
        n = 0
        try:
            while True:
                s.recvfrom(4096); n += 1
        except socket.timeout:
            pass
        print(n)
        """

    @Test func onlyItsSubnetItsAddressAndItsItems() throws {
        let scratch = try ScratchLibrary("mlib-dlna")
        defer { scratch.remove() }
        let base = scratch.base, music = scratch.media
        try scratch.copyFixture("mp3-id3v24.mp3", as: "a.mp3")
        try scratch.scan()
        let environment = scratch.environment
        let lab = try VethLab()
        defer { lab.close() }
        // A second subnet on the same link: its searches reach the server's socket, which must not answer them.
        let outsider = "10.99.\(lab.serverAddress.split(separator: ".")[2]).2"
        try VethLab.command(["-n", lab.client, "addr", "add", outsider + "/24", "dev", "eth0"])
        // …and a route back to it, so an answer would arrive were one sent (without it the test could not fail).
        try VethLab.command(["-n", lab.server, "route", "add", outsider.split(separator: ".").dropLast().joined(separator: ".") + ".0/24", "dev", "eth0"])
        let server = try lab.serveDLNA(environment: environment)
        defer { server.stop() }
        func clientRun(_ arguments: [String]) throws -> ChildProcess.Output {
            try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, arguments))
        }
        #expect(try clientRun(["python3", "-c", Self.search, lab.clientAddress]).out.trimmingCharacters(in: .whitespacesAndNewlines) == "6")
        #expect(try clientRun(["python3", "-c", Self.search, outsider]).out.trimmingCharacters(in: .whitespacesAndNewlines) == "0")

        // HTTP listens on eth0's address only, not on the server's loopback.
        let url = "http://\(lab.serverAddress):\(server.port)"
        let local = try ChildProcess.run(VethLab.ip, lab.exec(in: lab.server, ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
                                                                               "http://127.0.0.1:\(server.port)/description.xml"]))
        #expect(local.out == "000")
        func status(_ arguments: [String]) throws -> String {
            try clientRun(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}"] + arguments).out
        }
        #expect(try status([url + "/description.xml"]) == "200")
        // Files only by an item's id: no path from the request reaches the disk.
        #expect(try status(["--path-as-is", url + "/media/../../../../etc/passwd"]) == "404")
        #expect(try status([url + "/media/999999.mp3"]) == "404")
        #expect(try status(["--path-as-is", url + "/art/../../etc/passwd"]) == "404")
        #expect(try status(["-H", "Range: bytes=99999999-", url + "/media/1.mp3"]) == "416")
        // A body past 64 KiB is refused.
        let big = base.appendingPathComponent("big.xml")
        try Data(repeating: UInt8(ascii: "x"), count: 100_000).write(to: big)
        #expect(try status(["-X", "POST", "--data-binary", "@" + big.path, url + "/ContentDirectory/control"]) == "413")
        // UPnP's error codes: 701 no such object, 402 bad arguments.
        func browse(_ id: String, flag: String = "BrowseDirectChildren", count: String = "0") throws -> String {
            let body = """
                <?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>\
                <u:Browse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"><ObjectID>\(id)</ObjectID><BrowseFlag>\(flag)</BrowseFlag>\
                <Filter>*</Filter><StartingIndex>0</StartingIndex><RequestedCount>\(count)</RequestedCount><SortCriteria></SortCriteria>\
                </u:Browse></s:Body></s:Envelope>
                """
            return try clientRun(["curl", "-s", "-H", "Content-Type: text/xml", "-H", "SOAPACTION: \"urn:schemas-upnp-org:service:ContentDirectory:1#Browse\"",
                                  "--data-binary", body, url + "/ContentDirectory/control"]).out
        }
        #expect(try browse("1$albums$ffffffffffffffff").contains("<errorCode>701</errorCode>"))
        #expect(try browse("1$all$i999999", flag: "BrowseMetadata").contains("<errorCode>701</errorCode>"))
        #expect(try browse("0", count: "many").contains("<errorCode>402</errorCode>"))
        #expect(try browse("0", flag: "BrowseEverything").contains("<errorCode>402</errorCode>"))
        #expect(try browse("0").contains("TotalMatches>3<"))
        // A symlink swapped in for the indexed file after the scan (to a file outside the roots) is not
        // followed: not streamed, not transcoded (the API's `FileContainment` rule, O_NOFOLLOW within the roots).
        #expect(try status([url + "/media/1.mp3"]) == "200")
        let outside = base.appendingPathComponent("outside.mp3")
        try FileManager.default.moveItem(at: music.appendingPathComponent("a.mp3"), to: outside)
        try FileManager.default.createSymbolicLink(at: music.appendingPathComponent("a.mp3"), withDestinationURL: outside)
        #expect(try status([url + "/media/1.mp3"]) == "404", "a swapped-in symlink is not streamed")
        #expect(try status([url + "/transcode/1.mp3"]) == "404", "a swapped-in symlink is not transcoded")
        #expect(server.stop() == 0)
    }
    /// `/thumb/` and `/subtitle/` by the same rule as `/media/`: a video or its sidecar `.srt` swapped for a
    /// symlink after the scan (to a file outside the roots) is neither decoded into a still nor sent, and the
    /// DIDL-Lite stops offering a sidecar that would not be sent.
    @Test func stillsAndSubtitlesOnlyFromFilesWithinTheRoots() throws {
        let scratch = try ScratchLibrary("mlib-dlna", media: "videos")
        defer { scratch.remove() }
        let base = scratch.base, videos = scratch.media
        let fixture = try scratch.copyFixture("video-h264-aac.mp4", as: "v.mp4")
        try Data("1\n00:00:00,000 --> 00:00:01,000\nwithin the roots\n".utf8).write(to: videos.appendingPathComponent("v.srt"))
        // What the symlinks will point at: outside the roots, each with a marker no answer may hold.
        try FileManager.default.copyItem(at: fixture, to: base.appendingPathComponent("outside.mp4"))
        try Data("1\n00:00:00,000 --> 00:00:01,000\nOUTSIDE-THE-ROOTS\n".utf8).write(to: base.appendingPathComponent("outside.srt"))
        try scratch.scan()
        let environment = scratch.environment
        let lab = try VethLab()
        defer { lab.close() }
        let server = try lab.serveDLNA(environment: environment)
        defer { server.stop() }
        let url = "http://\(lab.serverAddress):\(server.port)"
        func curl(_ arguments: [String]) throws -> String {
            try ChildProcess.run(VethLab.ip, lab.exec(in: lab.client, ["curl", "-s"] + arguments)).out
        }
        func status(_ path: String) throws -> String { try curl(["-o", "/dev/null", "-w", "%{http_code}", url + path]) }
        func allVideos() throws -> String {
            let body = """
                <?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>\
                <u:Browse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"><ObjectID>2$all</ObjectID>\
                <BrowseFlag>BrowseDirectChildren</BrowseFlag><Filter>*</Filter><StartingIndex>0</StartingIndex>\
                <RequestedCount>0</RequestedCount><SortCriteria></SortCriteria></u:Browse></s:Body></s:Envelope>
                """
            return try curl(["-H", "Content-Type: text/xml", "-H", "SOAPACTION: \"urn:schemas-upnp-org:service:ContentDirectory:1#Browse\"",
                             "--data-binary", body, url + "/ContentDirectory/control"])
        }
        #expect(try status("/thumb/1.jpg") == "200")
        #expect(try status("/subtitle/1.srt") == "200")
        #expect(try allVideos().contains("/subtitle/1.srt"))

        // The sidecar swapped for a symlink out of the roots: not sent, and no longer offered.
        try FileManager.default.removeItem(at: videos.appendingPathComponent("v.srt"))
        try FileManager.default.createSymbolicLink(at: videos.appendingPathComponent("v.srt"), withDestinationURL: base.appendingPathComponent("outside.srt"))
        #expect(try status("/subtitle/1.srt") == "404", "a swapped-in symlink is not sent as subtitles")
        #expect(try !curl([url + "/subtitle/1.srt"]).contains("OUTSIDE-THE-ROOTS"))
        #expect(try !allVideos().contains("/subtitle/1.srt"), "a sidecar that would not be sent is not offered")
        #expect(try !curl(["-D", "-", "-o", "/dev/null", "-H", "getCaptionInfo.sec: 1", url + "/media/1.mp4"]).lowercased().contains("captioninfo.sec"))

        // The video swapped for a symlink out of the roots: no still (its cached one included), no stream.
        try FileManager.default.removeItem(at: videos.appendingPathComponent("v.mp4"))
        try FileManager.default.createSymbolicLink(at: videos.appendingPathComponent("v.mp4"), withDestinationURL: base.appendingPathComponent("outside.mp4"))
        #expect(try status("/thumb/1.jpg") == "404", "a swapped-in symlink is not decoded into a still")
        #expect(try status("/media/1.mp4") == "404")
        #expect(server.stop() == 0)
    }
}
