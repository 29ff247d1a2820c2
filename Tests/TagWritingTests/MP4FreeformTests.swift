import Foundation
import Testing
import TestSupport
@testable import TagWriting

/// MP4 freeform items (`----:com.apple.iTunes:NAME`) and ASF attributes outside TagLib 1.13's PropertyMap
/// list, which refused them (REPLAYGAIN_* from `mlib analyze --write`, any KEY of `mlib tag`): written,
/// replaced and removed like the other keys, an existing item keeping its own spelling, binary items and
/// the others untouched.
@Suite final class MP4FreeformTests: TagWorkspace {
    static func change(_ argument: String) -> TagChange { TagChange(argument: argument)! }

    @Test func freeformKeysAreWrittenReplacedAndRemoved() throws {
        let path = try TagFixtures.make(TagFixtures.formats.first { $0.name == "m4a" }!, in: dir)
        // loudgain -L's lower-case gain, iTunes' gapless text and a binary item.
        try TagFixtures.python("""
            from mutagen.mp4 import MP4, MP4FreeForm, AtomDataType
            f = MP4(p)
            f['----:com.apple.iTunes:replaygain_track_gain'] = [MP4FreeForm(b'1.00 dB')]
            f['----:com.apple.iTunes:iTunSMPB'] = [MP4FreeForm(b' 00000000 00000840')]
            f['----:com.apple.iTunes:Encoding Params'] = [MP4FreeForm(b'\\x00\\x01vers', dataformat=AtomDataType.IMPLICIT)]
            f.save()
            """, path)

        let report = writer.edit(path, TagEdit(changes: [Self.change("REPLAYGAIN_TRACK_GAIN=-6.52 dB"), Self.change("LABEL_CODE=LC 0001")]),
                                 write: true)
        #expect(report.error == nil && report.unsupported.isEmpty, "\(report)")
        #expect(report.changes.contains(.init(key: "REPLAYGAIN_TRACK_GAIN", old: ["1.00 dB"], new: ["-6.52 dB"])), "\(report.changes)")
        #expect(report.changes.contains(.init(key: "LABEL_CODE", old: [], new: ["LC 0001"])), "\(report.changes)")
        let items = try Self.freeform(path)
        #expect(items["replaygain_track_gain"] == "-6.52 dB", "\(items)")
        #expect(items["LABEL_CODE"] == "LC 0001" && items["iTunSMPB"] == " 00000000 00000840", "\(items)")
        #expect(items["Encoding Params"] == "binary 6", "\(items)")
        #expect(try TagFixtures.mutagen(path)["title"] as? [String] == ["Old"])

        let removal = writer.edit(path, TagEdit(changes: [Self.change("REPLAYGAIN_TRACK_GAIN!")]), write: true)
        #expect(removal.changes == [.init(key: "REPLAYGAIN_TRACK_GAIN", old: ["-6.52 dB"], new: [])])
        let after = try Self.freeform(path)
        #expect(after["replaygain_track_gain"] == nil && after["LABEL_CODE"] == "LC 0001" && after["Encoding Params"] == "binary 6", "\(after)")
    }

    @Test func asfAttributesAreWrittenReplacedAndRemoved() throws {
        let path = try TagFixtures.make(TagFixtures.formats.first { $0.name == "asf" }!, in: dir)
        try TagFixtures.python("""
            from mutagen.asf import ASF, ASFByteArrayAttribute
            f = ASF(p)
            f['replaygain_track_gain'] = ['1.00 dB']
            f['Blob'] = [ASFByteArrayAttribute(b'\\x00\\x01')]
            f.save()
            """, path)
        let report = writer.edit(path, TagEdit(changes: [Self.change("REPLAYGAIN_TRACK_GAIN=-6.52 dB"), Self.change("REPLAYGAIN_TRACK_PEAK=0.912345")]),
                                 write: true)
        #expect(report.error == nil && report.unsupported.isEmpty, "\(report)")
        #expect(report.changes.contains(.init(key: "REPLAYGAIN_TRACK_GAIN", old: ["1.00 dB"], new: ["-6.52 dB"])), "\(report.changes)")
        var attributes = try Self.asfAttributes(path)
        #expect(attributes["replaygain_track_gain"] == "-6.52 dB" && attributes["REPLAYGAIN_TRACK_PEAK"] == "0.912345", "\(attributes)")
        #expect(attributes["Blob"] == "binary 2" && attributes["Title"] == "Old", "\(attributes)")

        let removal = writer.edit(path, TagEdit(changes: [Self.change("REPLAYGAIN_TRACK_GAIN!")]), write: true)
        #expect(removal.changes == [.init(key: "REPLAYGAIN_TRACK_GAIN", old: ["-6.52 dB"], new: [])])
        attributes = try Self.asfAttributes(path)
        #expect(attributes["replaygain_track_gain"] == nil && attributes["REPLAYGAIN_TRACK_PEAK"] == "0.912345" && attributes["Blob"] == "binary 2",
                "\(attributes)")
    }

    /// The file's ASF attributes as mutagen reads them: name → text, or "binary N".
    static func asfAttributes(_ path: String) throws -> [String: String] {
        let script = """
            import json, sys
            from mutagen.asf import ASF, ASFUnicodeAttribute
            out = {}
            for k, v in ASF(sys.argv[1]).tags.items():
                out[k] = v[0].value if isinstance(v[0], ASFUnicodeAttribute) else 'binary %d' % len(bytes(v[0].value))
            print(json.dumps(out))
            """
        let run = try ChildProcess.run("python3", ["-c", script, path])
        guard run.status == 0 else { throw TagFixtures.FixtureError(message: "mutagen: \(run.stderr)") }
        return try JSONDecoder().decode([String: String].self, from: run.stdout)
    }

    /// The file's freeform items as mutagen reads them: name → text, or "binary N" for N bytes of other data.
    static func freeform(_ path: String) throws -> [String: String] {
        let script = """
            import json, sys
            from mutagen.mp4 import MP4, AtomDataType
            out = {}
            for k, v in MP4(sys.argv[1]).tags.items():
                if k.startswith('----:com.apple.iTunes:'):
                    x = v[0]
                    out[k[22:]] = bytes(x).decode() if x.dataformat == AtomDataType.UTF8 else 'binary %d' % len(bytes(x))
            print(json.dumps(out))
            """
        let run = try ChildProcess.run("python3", ["-c", script, path])
        guard run.status == 0 else { throw TagFixtures.FixtureError(message: "mutagen: \(run.stderr)") }
        return try JSONDecoder().decode([String: String].self, from: run.stdout)
    }
}
