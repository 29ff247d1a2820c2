import Foundation
import MediaModel
@testable import MediaProbe
import Testing

/// No fixture is read worse by a change to the readers: every file under Fixtures/ is read by both probe
/// paths and compared, field by field, with `fixture-reads.json`, frozen from main before issue 49's
/// changes (the item, the stream facts, partial and its warnings, the tag source; not the modification
/// time, which a checkout sets). A field that differs fails the test unless `changed` names it: a change
/// must be meant, and said here with its reason.
///
/// To freeze anew (after a change meant for many files): `MLIB_FREEZE_FIXTURE_READS=1 swift test --filter
/// FixtureReadSnapshotTests`, then read the diff of the JSON before committing it.
struct FixtureReadSnapshotTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let snapshot = here.appendingPathComponent("fixture-reads.json")
    static let fixtures = FixtureTests.fixtures

    /// "file (detail)" → field path → why it may differ from the frozen read.
    static let changed: [String: [String: String]] = {
        // Issue 49: a cut MP3 is as long as its whole frames decode to (counted), not the header's length
        // scaled by the bytes left. FFmpeg decodes 0.158 s of cut-2k.mp3 (was read 0.198 s, now 0.144 s: one
        // frame off instead of two) and nothing of mp3-cut-after-tag.mp3 (was 0.046 s, now 0).
        let cut = "a cut MP3's length is its whole frames' (issue 49)"
        var out: [String: [String: String]] = [:]
        for file in ["bad/cut-2k.mp3", "odd/mp3-cut-after-tag.mp3"] {
            for detail in ["library", "streams"] { out["\(file) (\(detail))"] = ["item.playbackDuration": cut, "streams.0.duration": cut] }
        }
        // Issue 46: an ID3v2 tag of padding alone is a tag read, not one TagLib gave up on, so the scan's
        // TagLib path reads these files as it reads every tagged MP3 (FFmpeg's long codec name is a
        // `.streams` fact), and no FFmpeg stream tag stands in for the empty tag.
        let empty = "an empty ID3v2 tag takes the TagLib path (issue 46)"
        for file in ["odd/mp3-junk-first.mp3", "odd/mp3-vbr-no-xing.mp3"] { out["\(file) (library)"] = ["streams.0.codecLongName": empty] }
        return out
    }()

    /// Fields added to every read since the freeze, with the one value a fixture may have there.
    static let added: [String: String] = [
        "decodable": "true", "undecodableReason": "null",           // issue 49: every fixture decodes
        "item.isDecodable": "true",                                 // issue 49: the same, as the item's property
    ]

    /// The media files under Fixtures/ (not the JSON, scripts, schema and library dumps beside them).
    static func files() -> [String] {
        let skip: Set<String> = ["json", "md", "sh", "sql", "sqlite"]
        let root = fixtures.path + "/"
        let all = FileManager.default.enumerator(atPath: fixtures.path)?.compactMap { $0 as? String } ?? []
        return all.filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + name, isDirectory: &isDirectory) && !isDirectory.boolValue
                && !skip.contains((name as NSString).pathExtension) && !name.hasPrefix("schema/") && !name.hasPrefix("libraries/")
        }.sorted()
    }

    /// Each field of a read as "path" → value, flattened (`item.title`, `streams.0.codec`, `warnings.1`).
    static func read(_ name: String, _ detail: MediaProbe.Detail) -> [String: String] {
        let path = MediaPath(fixtures.appendingPathComponent(name).path)
        let json: JSONValue
        do { json = try MediaProbe.probe(path, detail: detail).json } catch { json = error.json }
        var out: [String: String] = [:]
        func flatten(_ v: JSONValue, _ prefix: String) {
            switch v {
            case .object(let members): for (k, m) in members { flatten(m, prefix.isEmpty ? k : prefix + "." + k) }
            case .array(let items): for (i, m) in items.enumerated() { flatten(m, prefix + ".\(i)") }
            default: out[prefix] = v.serialized()
            }
        }
        flatten(json, "")
        out["path"] = nil
        out["item.path"] = nil
        return out.filter { !$0.key.hasSuffix("modificationDate") }
    }

    static func key(_ name: String, _ detail: MediaProbe.Detail) -> String { "\(name) (\(detail))" }

    @Test func noFixtureIsReadDifferentlyUnlessTheChangeIsNamed() throws {
        var reads: [String: [String: String]] = [:]
        for name in Self.files() {
            for detail in [MediaProbe.Detail.library, .streams] { reads[Self.key(name, detail)] = Self.read(name, detail) }
        }
        #expect(reads.count >= 140, "only \(reads.count) reads: the fixtures are missing")
        if ProcessInfo.processInfo.environment["MLIB_FREEZE_FIXTURE_READS"] != nil {
            let data = try JSONSerialization.data(withJSONObject: reads, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: Self.snapshot)
            Issue.record("froze \(reads.count) reads into \(Self.snapshot.path): unset MLIB_FREEZE_FIXTURE_READS to compare")
            return
        }
        let frozen = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.snapshot)) as? [String: [String: String]])
        #expect(Set(frozen.keys) == Set(reads.keys), "files added or gone: \(Set(frozen.keys).symmetricDifference(reads.keys).sorted())")
        for (file, before) in frozen.sorted(by: { $0.key < $1.key }) {
            guard let now = reads[file] else { continue }
            let allowed = Self.changed[file] ?? [:]
            for field in Set(before.keys).union(now.keys).sorted() where before[field] != now[field] {
                if before[field] == nil, let value = Self.added[field], now[field] == value { continue }
                let reason = allowed.first { field == $0.key || field.hasPrefix($0.key + ".") }
                #expect(reason != nil, "\(file): \(field) was \(before[field] ?? "absent"), now \(now[field] ?? "absent")")
            }
        }
    }
}
