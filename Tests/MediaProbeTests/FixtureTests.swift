import Foundation
import MediaModel
import MediaProbe
import Testing

/// Every fixture must read as Fixtures/expected.json says (tags written by make-fixtures.sh, stream facts
/// recorded from ffprobe when the fixtures were made).
struct FixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    struct Expectation: @unchecked Sendable, CustomTestStringConvertible {
        let file: String
        let spec: [String: Any]
        var testDescription: String { file }
    }

    static let expectations: [Expectation] = {
        guard let data = try? Data(contentsOf: fixtures.appendingPathComponent("expected.json")),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let files = root["files"] as? [String: [String: Any]] else { return [] }
        return files.keys.sorted().map { Expectation(file: $0, spec: files[$0]!) }
    }()

    @Test func expectedJSONIsPresent() {
        #expect(Self.expectations.count >= 20, "Fixtures/expected.json missing or nearly empty")
    }

    @Test(arguments: expectations)
    func fixtureReadsAsExpected(_ e: Expectation) throws {
        let path = MediaPath(Self.fixtures.appendingPathComponent(e.file).path)
        if let code = e.spec["error"] as? String {
            #expect(throws: ProbeError.self) { try MediaProbe.probe(path) }
            do { _ = try MediaProbe.probe(path) } catch { #expect(error.code == code, "\(e.file): \(error)") }
            return
        }
        let result = try MediaProbe.probe(path)
        let item = result.item
        // `partial` is compared on every readable file: absent means a whole, undamaged read.
        let partial = e.spec["partial"] as? Bool ?? false
        #expect(result.isPartial == partial, "\(e.file): partial = \(result.isPartial) \(result.warnings), want \(partial)")
        #expect(item[.isPartial]?.bool == partial, "\(e.file): stored partial")
        #expect((item[.partialReason] != nil) == partial, "\(e.file): partial reason \(String(describing: item[.partialReason]))")
        for (key, expected) in e.spec["tags"] as? [String: Any] ?? [:] {
            let property = try #require(MediaProperty(rawValue: key), "unknown property \(key) in expected.json")
            if let list = expected as? [String] {     // a multi-valued property's values, in tag order
                #expect(item.values(of: property) == list, "\(e.file): \(property.rawValue) = \(item.values(of: property)), want \(list)")
                continue
            }
            let actual = item[property]
            check(actual, expected, property, file: e.file)
        }
        for (key, expected) in e.spec["stream"] as? [String: Any] ?? [:] {
            let property = try #require(MediaProperty(rawValue: key), "unknown property \(key) in expected.json")
            let actual = item[property]
            if property == .playbackDuration, let want = expected as? Double {
                let got = try #require(actual?.real, "\(e.file): no duration")
                #expect(abs(got - want) <= max(0.05, want * 0.01), "\(e.file): duration \(got) vs ffprobe \(want)")
            } else {
                check(actual, expected, property, file: e.file)
            }
        }
    }

    private func check(_ actual: MediaValue?, _ expected: Any, _ property: MediaProperty, file: String) {
        switch expected {
        case let b as Bool where property.spec.type == .bool:
            #expect(actual?.bool == b, "\(file): \(property.rawValue) = \(String(describing: actual)), want \(b)")
        case let s as String where property.spec.type == .mediaType:
            #expect(actual.map { MediaType(rawValue: $0.integer ?? 0).name } == s, "\(file): mediaType")
        case let s as String:
            #expect(actual?.text == s, "\(file): \(property.rawValue) = \(String(describing: actual)), want \(s)")
        case let n as NSNumber:
            if property.spec.type == .real || property.spec.type == .duration {
                #expect(abs((actual?.real ?? .nan) - n.doubleValue) < 0.001, "\(file): \(property.rawValue) = \(String(describing: actual)), want \(n)")
            } else {
                #expect(actual?.integer == n.int64Value, "\(file): \(property.rawValue) = \(String(describing: actual)), want \(n)")
            }
        case is NSNull:
            #expect(actual == nil, "\(file): \(property.rawValue) should be absent, is \(String(describing: actual))")
        default:
            Issue.record("\(file): cannot compare \(property.rawValue) with \(expected)")
        }
    }
}
