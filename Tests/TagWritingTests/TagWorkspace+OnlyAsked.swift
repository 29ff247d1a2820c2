import Foundation
import Testing
import TestSupport
@testable import TagWriting

/// The rule of issue 46's tests (`WriteCheckTests`, `KeptFieldsTests`): after `title=… comment=…` a file is
/// either written with every other field mutagen and ffprobe read, and its decoded audio, as they were, or
/// refused by the check (`WriteCheck`) with its bytes as they were.
extension TagWorkspace {
    static let fieldsScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Benchmarks/tag-fields.py").standardized.path

    struct Comparison { var differences: [String]; var identical: Bool }

    /// tag-fields.py's comparison of `original` and `written` outside the fields asked.
    static func compare(_ original: String, _ written: String, asked: String = "title,comment") throws -> Comparison {
        let r = try ChildProcess.run("python3", [fieldsScript, "compare", original, written, asked, "title=New Title", "comment=New comment"])
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] else {
            throw TagFixtures.FixtureError(message: "tag-fields.py: \(r.stderr)")
        }
        return Comparison(differences: json["differences"] as? [String] ?? [], identical: json["identical"] as? Bool ?? false)
    }

    /// Writes title and comment to `path` and holds the result to the rule above; the report.
    @discardableResult
    func expectOnlyAsked(_ path: String, writer: TagWriter? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> TagFileReport {
        let original = dir.appendingPathComponent("original-" + URL(fileURLWithPath: path).lastPathComponent).path
        try FileManager.default.copyItem(atPath: path, toPath: original)
        let edit = TagEdit(changes: ["title=New Title", "comments=New comment"].map { TagChange(argument: $0)! })
        let report = (writer ?? self.writer).edit(path, edit, write: true)
        let comparison = try Self.compare(original, path)
        switch report.outcome {
        case .inPlace, .rewritten:
            #expect(comparison.differences.isEmpty, "written, and changed more than asked: \(comparison.differences)", sourceLocation: sourceLocation)
            // The new title as mutagen reads it, or as ffprobe does where mutagen reads no tag (RIFF INFO).
            let tags = try TagFixtures.mutagen(path)
            let probed = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=title", "-of", "csv=p=0", path])
            #expect(tags["title"] as? [String] == ["New Title"] || (tags["title"] == nil && probed.out.trimmingCharacters(in: .whitespacesAndNewlines) == "New Title"),
                    "\(tags) \(probed.out)", sourceLocation: sourceLocation)
        case .failed:
            #expect(comparison.identical, "refused, but the file changed: \(comparison.differences)", sourceLocation: sourceLocation)
            #expect(report.error?.contains("would also change") == true, "\(report.error ?? "")", sourceLocation: sourceLocation)
        default:
            Issue.record("neither written nor refused: \(report.outcome) \(report.error ?? "")", sourceLocation: sourceLocation)
        }
        // Nothing left behind: no copy, no journal entry.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "\(left)", sourceLocation: sourceLocation)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("journal").path)) ?? [] == [],
                sourceLocation: sourceLocation)
        return report
    }
}
