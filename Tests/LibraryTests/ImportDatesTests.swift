import Foundation
@testable import Library
import Testing

/// The importers' date parser (`ImportDates.iso8601`, written by hand for speed) agrees with Foundation's
/// ISO8601DateFormatter on the forms iTunes and Navidrome write, and refuses what is not a date.
struct ImportDatesTests {
    @Test func itAgreesWithFoundation() throws {
        let foundation = ISO8601DateFormatter()
        for text in ["2024-05-01T12:00:00Z", "1970-01-01T00:00:00Z", "2000-02-29T23:59:59Z", "1904-01-01T00:00:00Z",
                     "2100-03-01T00:00:01Z", "2026-03-16T12:00:00+00:00", "2026-03-16T12:00:00+02:00", "2026-03-16T12:00:00-0530"] {
            #expect(ImportDates.iso8601(text) == foundation.date(from: text), "\(text)")
        }
        #expect(ImportDates.iso8601("2026-03-16 12:00:00+00:00") == foundation.date(from: "2026-03-16T12:00:00Z"), "Navidrome's space")
        #expect(ImportDates.iso8601("2025-01-02T03:04:05.123456789Z")?.timeIntervalSince1970 == 1_735_787_045.123456789)
        #expect(ImportDates.iso8601("2025-01-02 03:04:05") == foundation.date(from: "2025-01-02T03:04:05Z"), "no zone: UTC")
        for bad in ["", "2024-05-01", "2024-13-01T00:00:00Z", "2024-05-01T25:00:00Z", "2024-05-01T12:00:00Q", "2024-05-01T12:00:00Z junk", "yesterday"] {
            #expect(ImportDates.iso8601(bad) == nil, "\(bad)")
        }
    }
}
