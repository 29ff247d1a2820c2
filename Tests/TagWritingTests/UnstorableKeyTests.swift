import Foundation
import Testing
import TestSupport
@testable import TagWriting

/// A key the file's tag cannot store (REPLAYGAIN_* in a WAV tagged in RIFF INFO only, as `mlib analyze
/// --write` asks of every WAV): reported, and the file not written.
@Suite final class UnstorableKeyTests: TagWorkspace {
    @Test func aKeyRiffInfoCannotStoreLeavesTheFileAlone() throws {
        let path = dir.appendingPathComponent("info.wav").path
        let r = try ChildProcess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=duration=0.5", "-c:a", "pcm_s16le",
                                                "-metadata", "title=Old", path])
        #expect(r.status == 0)
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let report = writer.edit(path, TagEdit(changes: [TagChange(argument: "REPLAYGAIN_TRACK_GAIN=-6.52 dB")!]), write: true)
        #expect(report.unsupported == ["REPLAYGAIN_TRACK_GAIN"])
        #expect(report.changes.isEmpty, "\(report.changes)")
        #expect(report.outcome == .unchanged)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == before)
        // What INFO stores is still written.
        let title = writer.edit(path, TagEdit(changes: [TagChange(argument: "title=New")!]), write: true)
        #expect(title.changes == [.init(key: "TITLE", old: ["Old"], new: ["New"])] && title.outcome != .failed, "\(title)")
    }
}
