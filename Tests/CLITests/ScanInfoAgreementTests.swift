import Foundation
import Testing

/// mlib(1): the properties a scan stores are the ones `mlib info` shows. The scanner reads the formats mlib
/// reads natively without FFmpeg, `info` with it; one merge decides every property either way. Held here on
/// every fixture and odd file (Fixtures/odd): `info --json`'s item and `ls --json`'s stored item carry the
/// same values, a file `info` cannot read is in `failures` with the same code, and a partial read is stored
/// as such, found by `damaged:yes` and listed by `failures`. (Benchmarks/agreement-corpus.sh runs the same
/// comparison over a generated library.)
@Suite(.serialized) struct ScanInfoAgreementTests {
    /// Kept by the library, not read from the file.
    static let libraryKeys: Set<String> = ["persistentID", "playCount", "skipCount", "lastPlayedDate", "rating", "dateAdded"]

    @Test func scanStoresWhatInfoShows() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-agree-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        defer { try? FileManager.default.removeItem(at: dir) }
        let music = dir.appendingPathComponent("music")
        for file in try CLI.fixtureFiles() {
            let relative = String(file.dropFirst(CLI.fixtures.path.count + 1))
            let target = music.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: file, toPath: target.path)
        }
        let library = dir.appendingPathComponent("lib.sqlite").path
        _ = try CLI.run(["scan", "--quiet", "--library", library, music.path])

        let files = try FileManager.default.subpathsOfDirectory(atPath: music.path).sorted()
            .map { music.appendingPathComponent($0).path }
            .filter { var d: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &d) && !d.boolValue }
        let info = try CLI.run(["info", "--json"] + files)
        let shown = try #require(try JSONSerialization.jsonObject(with: info.stdout) as? [[String: Any]])
        let listed = try CLI.run(["ls", "--json", "--library", library])
        let stored = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]], "\(listed.stderr)")
        let storedByPath = Dictionary(stored.map { ($0["path"] as! String, $0) }, uniquingKeysWith: { a, _ in a })
        let failures = try CLI.run(["failures", "--json", "--library", library])
        let failed = try #require(try JSONSerialization.jsonObject(with: failures.stdout) as? [[String: Any]], "\(failures.stderr)")
        let failureByPath = Dictionary(failed.map { ($0["path"] as! String, $0) }, uniquingKeysWith: { a, _ in a })

        var partial = 0
        for object in shown {
            let path = try #require(object["path"] as? String)
            guard object["ok"] as? Bool == true else {
                let code = (object["error"] as? [String: Any])?["code"] as? String
                #expect(storedByPath[path] == nil, "\(path): info fails (\(code ?? "?")), yet the scan stored it")
                #expect(failureByPath[path]?["code"] as? String == code, "\(path): failures does not list it as \(code ?? "?")")
                continue
            }
            let item = try #require(object["item"] as? [String: Any])
            guard let kept = storedByPath[path] else { Issue.record("\(path): read by info, not stored by scan"); continue }
            for key in Set(item.keys).union(kept.keys).subtracting(Self.libraryKeys) {
                let a = item[key], b = kept[key]
                if key == "modificationDate" || key == "playbackDuration" {
                    let x = (a as? NSNumber)?.doubleValue ?? .nan, y = (b as? NSNumber)?.doubleValue ?? .nan
                    #expect(abs(x - y) < 0.001, "\(path): \(key) info \(String(describing: a)) vs stored \(String(describing: b))")
                } else {
                    #expect(same(a, b), "\(path): \(key) info \(String(describing: a)) vs stored \(String(describing: b))")
                }
            }
            if object["partial"] as? Bool == true {
                partial += 1
                #expect(kept["isPartial"] as? Bool == true, "\(path): partial in info, not in the index")
                #expect(failureByPath[path]?["code"] as? String == "partial", "\(path): failures does not list the partial read")
            }
        }
        #expect(partial >= 7, "the fixtures include at least 7 partial reads")

        let damaged = try CLI.run(["ls", "--paths", "--library", library, "damaged:yes"])
        #expect(damaged.status == 0, "\(damaged.stderr)")
        #expect(damaged.out.split(separator: "\n").count == partial)

        // The clean file type: MP4 video and M4A audio share FFmpeg's demuxer name, not their type.
        let mp4 = try CLI.run(["ls", "--paths", "--library", library, "format:mp4"])
        #expect(mp4.out.split(separator: "\n").map { String($0).hasSuffix("video-h264-aac.mp4") } == [true], "\(mp4.out)")
        let m4a = try CLI.run(["ls", "--paths", "--library", library, "format:m4a"])
        let m4aLines = m4a.out.split(separator: "\n")
        #expect(m4aLines.count >= 4 && m4aLines.allSatisfy { $0.hasSuffix(".m4a") }, "\(m4a.out)")
        let m4b = try CLI.run(["ls", "--paths", "--library", library, "format:m4b", "chapters:3"])
        #expect(m4b.out.split(separator: "\n").map { String($0).hasSuffix("m4b-chapters.m4b") } == [true], "\(m4b.out)")
        let stats = try CLI.run(["stats", "--library", library])
        #expect(stats.out.contains("By file type:") && !stats.out.contains("mov,mp4"), "\(stats.out)")
        #expect(stats.out.contains("Partial:    \(partial)"), "\(stats.out)")
    }

    private func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x as NSObject, let y as NSObject): x.isEqual(y)
        default: false
        }
    }
}
