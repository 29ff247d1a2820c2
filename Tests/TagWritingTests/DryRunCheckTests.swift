import Foundation
import MediaModel
import Testing
import TestSupport
@testable import TagWriting

/// Issue 46: `mlib tag --dry-run` said nothing of what the check (`WriteCheck`) would refuse; the write then
/// refused it. The dry run now renders each edit into a temporary copy and runs the check there.
@Suite final class DryRunCheckTests: TagWorkspace {
    @Test func theDryRunSaysWhatTheCheckWouldRefuse() throws {
        // A damaged file (an interrupted copy), which the check refuses for a reason no fix will remove.
        let refused = try TagFixtures.truncatedAIFF(in: dir)
        let fine = try TagFixtures.make(TagFixtures.formats.first { $0.name == "flac" }!, in: dir, name: "fine")
        let before = try Data(contentsOf: URL(fileURLWithPath: refused))
        let edit = TagEdit(changes: [TagChange(argument: "title=New")!])
        let report = writer.plan(MediaPath(refused), edit)
        try #require(report.outcome == .failed, "the dry run planned a write the check refuses: \(report.outcome)")
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
        #expect(r.stderr.contains("truncated.aiff: the write would also change"), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: refused)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
    }
}
