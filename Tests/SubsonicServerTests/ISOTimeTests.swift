@testable import SubsonicServer
import Testing

/// The API's times (`created`, `played`, `changed`…) written from gmtime_r's fields are what Foundation's
/// ISO 8601 style wrote, second for second, across the range a library holds and at its edges.
struct ISOTimeTests {
    @Test func gmtimeFieldsWriteWhatFoundationWrote() {
        var random = SystemRandomNumberGenerator()
        let edges: [Int64] = [0, -1, 59, 86_399, 86_400, 951_782_400, 1_709_164_800, 4_102_444_799, 253_402_300_799, -62_167_219_200]
        for seconds in edges + (0..<2_000).map({ _ in Int64.random(in: -2_208_988_800...4_102_444_800, using: &random) }) {
            #expect(Call.iso(seconds: seconds) == Call.foundationISO(seconds), "\(seconds)")
        }
        #expect(Call.iso(seconds: 1_714_559_400) == "2024-05-01T10:30:00Z")
    }
}
