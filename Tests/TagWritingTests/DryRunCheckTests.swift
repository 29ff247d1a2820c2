import Foundation
import MediaModel
import Testing
import TestSupport
@testable import TagWriting

/// Issue 46: `mlib tag --dry-run` said nothing of what the check (`WriteCheck`) would refuse; the write then
/// refused it. The dry run now renders each edit into a temporary copy and runs the check there.
@Suite final class DryRunCheckTests: TagWorkspace {
    /// An MP3 whose ID3v2.3 tag has an extended header, behind which an ID3v1 tag holds other values:
    /// TagLib 1.13 misreads the frames behind the extended header and writes the ID3v1 values into the tag,
    /// which the check refuses.
    func extendedHeaderMP3() throws -> String {
        let path = dir.appendingPathComponent("exthdr.mp3").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libmp3lame",
                                                "-id3v2_version", "0", path])
        #expect(r.status == 0)
        try TagFixtures.python("""
            def frame(i, body): return i.encode() + len(body).to_bytes(4, "big") + b"\\0\\0" + body
            def text(s): return b"\\0" + s.encode("latin-1")
            frames = frame("TIT2", text("Old")) + frame("TPE1", text("Interpret v2")) + frame("TALB", text("Album v2"))
            body = (6).to_bytes(4, "big") + b"\\0\\0" + (512).to_bytes(4, "big") + frames + bytes(512)
            size = len(body); ss = bytes([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f])
            def f(s, n): return s.encode("latin-1")[:n].ljust(n, b"\\0")
            d = open(p, "rb").read()
            open(p, "wb").write(b"ID3\\x03\\x00\\x40" + ss + body + d + b"TAG" + f("Old", 30) + f("Interpret v1", 30) + f("Album v1", 30)
                                + b"1999" + f("", 28) + b"\\0\\x07" + bytes([17]))
            """, path)
        return path
    }

    @Test func theDryRunSaysWhatTheCheckWouldRefuse() throws {
        let refused = try extendedHeaderMP3()
        let fine = try TagFixtures.make(TagFixtures.formats.first { $0.name == "flac" }!, in: dir, name: "fine")
        let before = try Data(contentsOf: URL(fileURLWithPath: refused))
        let edit = TagEdit(changes: [TagChange(argument: "title=New")!])
        let report = writer.plan(MediaPath(refused), edit)
        guard report.outcome == .failed else {
            // Written without loss would be the better fix; then the write must agree.
            let written = writer.edit(refused, edit, write: true)
            #expect(written.outcome != .failed, "the dry run planned it, the write refused it: \(written.error ?? "")")
            return
        }
        #expect(report.error?.contains("would also change") == true, "\(report.error ?? "")")
        #expect(writer.plan(MediaPath(fine), edit).outcome == .planned)
        #expect(try Data(contentsOf: URL(fileURLWithPath: refused)) == before)

        // The command: the refusal on stderr, exit status 1, nothing written, no temporary copy left.
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let env = ["MLIB_TAG_JOURNAL": dir.appendingPathComponent("journal").path, "HOME": dir.path, "TMPDIR": tmp.path,
                   "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path, "XDG_DATA_HOME": dir.appendingPathComponent("data").path]
        let r = try ChildProcess.run(ChildProcess.mlib.path, ["tag", "--files", refused, fine, "title=New", "--dry-run"], environment: env)
        #expect(r.status == 1, "\(r.out) \(r.stderr)")
        #expect(r.stderr.contains("exthdr.mp3: the write would also change"), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: refused)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
    }
}
