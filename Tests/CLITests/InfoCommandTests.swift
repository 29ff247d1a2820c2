import Foundation
import Testing

@Suite(.serialized) struct InfoCommandTests {
    /// Every fixture at once, good and bad, in one process: no crash, no hang, one JSON object per file in
    /// argument order, failures as documented, exit status 1 because some files are bad.
    @Test func everyFixtureAtOnce() throws {
        let files = try CLI.fixtureFiles()
        let r = try CLI.run(["info", "--json"] + files)
        #expect(r.status == 1)
        let array = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]])
        #expect(array.count == files.count)
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: CLI.fixtures.appendingPathComponent("expected.json"))) as! [String: Any]
        let specs = expected["files"] as! [String: [String: Any]]
        for (object, file) in zip(array, files) {
            #expect(object["path"] as? String == file)
            let relative = String(file.dropFirst(CLI.fixtures.path.count + 1))
            if let code = specs[relative]?["error"] as? String {
                #expect(object["ok"] as? Bool == false)
                #expect((object["error"] as? [String: Any])?["code"] as? String == code, "\(relative)")
                #expect(r.stderr.contains("mlib: \(file): "), "one stderr line per failure")
            } else {
                #expect(object["ok"] as? Bool == true, "\(relative)")
                let item = try #require(object["item"] as? [String: Any])
                #expect(item["container"] is String)
                // Numbers are numbers, not strings.
                if let rate = item["sampleRate"] { #expect(rate is NSNumber && !(rate is String)) }
            }
        }
        #expect(r.stderr.split(separator: "\n").count == specs.values.filter { $0["error"] is String }.count)
    }

    /// A truncated file (issue 25's rule): the duration is the audio present, the header's length is shown
    /// beside it and is in the JSON as `declaredDuration`; a whole file has neither row nor key.
    @Test func aTruncatedFileShowsItsDeclaredDuration() throws {
        let cut = CLI.fixtures.appendingPathComponent("bad/truncated.flac").path
        let text = try CLI.run(["info", cut])
        #expect(text.status == 0)
        let lines = text.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("Declared duration") && $0.contains("0:01.000") }, "\(text.out)")
        #expect(lines.contains { $0.contains("Duration") && !$0.contains("Declared") && !$0.contains("0:01.000") }, "\(text.out)")
        let json = try CLI.run(["info", "--json", cut])
        let object = try #require((try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])?.first)
        let item = try #require(object["item"] as? [String: Any])
        #expect(item["declaredDuration"] as? Double == 1)
        #expect((item["playbackDuration"] as? Double ?? 1) < 0.5)
        let whole = try CLI.run(["info", "--json", CLI.fixtures.appendingPathComponent("flac-vorbis-cover.flac").path])
        #expect(!whole.out.contains("declaredDuration"))
    }

    /// bitRate is the audio stream's: a 128 kb/s CBR MP3 with a 48 KiB cover is 128 kb/s (ffprobe's file
    /// average says 327), and its stream line shows it like any other codec's.
    @Test func mp3BitRateIsTheAudioStreams() throws {
        let r = try CLI.run(["info", CLI.fixtures.appendingPathComponent("odd/mp3-cbr128-cover.mp3").path])
        #expect(r.status == 0)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("Bit rate") && $0.hasSuffix(" 128 kb/s") }, "\(r.out)")
        #expect(lines.contains { $0.contains("Stream #0 audio: mp3") && $0.contains("128 kb/s") }, "\(r.out)")
        #expect(lines.contains { $0.contains("File type") && $0.hasSuffix(" mp3") }, "\(r.out)")
    }

    @Test func allGoodFilesExitZero() throws {
        let good = try CLI.fixtureFiles().filter { !$0.contains("/bad/") }
        let r = try CLI.run(["info", "--jsonl"] + good)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out.split(separator: "\n").count == good.count)
        #expect(r.stderr.isEmpty)
    }

    @Test func textReportShowsTagsAndStreams() throws {
        let r = try CLI.run(["info", CLI.fixtures.appendingPathComponent("flac-vorbis-cover.flac").path])
        #expect(r.status == 0)
        #expect(r.out.contains("Album Artist"))
        #expect(r.out.contains("Stream #0 audio: flac"))
        #expect(r.out.contains("Picture: Front Cover"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try CLI.run(["info"]).status == 2)
        #expect(try CLI.run(["info", "--json", "--jsonl", "x"]).status == 2)
    }

    @Test func missingFileIsOneClearLine() throws {
        let r = try CLI.run(["info", "/nonexistent/song.mp3"])
        #expect(r.status == 1)
        #expect(r.stderr == "mlib: /nonexistent/song.mp3: no such file\n")
    }
}
