import Foundation
import MediaModel
import Testing

/// `StoredBounds`: what a store may hold and how values outside it are read back (issue 37).
struct StoredBoundsTests {
    @Test func valuesOutOfRangeAreClampedAndNonNumbersDropped() {
        #expect(StoredBounds.bounded(.lastPlayedDate, .real(1e297)) == .real(253_402_300_799))
        #expect(StoredBounds.bounded(.lastPlayedDate, .real(-1e300)) == .real(-62_135_596_800))
        #expect(StoredBounds.bounded(.lastPlayedDate, .real(.nan)) == nil)
        #expect(StoredBounds.bounded(.dateAdded, .real(1_700_000_000)) == .real(1_700_000_000), "a value in range is unchanged")
        #expect(StoredBounds.bounded(.playbackDuration, .real(.infinity)) == nil)
        #expect(StoredBounds.bounded(.playbackDuration, .real(-3)) == .real(0))
        #expect(StoredBounds.bounded(.playCount, .integer(-5)) == .integer(0))
        #expect(StoredBounds.bounded(.rating, .integer(99)) == .integer(5))
        #expect(StoredBounds.bounded(.title, .text("x")) == .text("x"))
        #expect(StoredBounds.problem(.rating, .integer(6)) != nil && StoredBounds.problem(.rating, .integer(3)) == nil)
        #expect(!StoredBounds.contains(Date(timeIntervalSince1970: 1e297)) && StoredBounds.contains(Date()))
    }

    @Test func integersOfHugeRealsAreNilNotATrap() {
        #expect(MediaValue.real(1e297).integer == nil)
        #expect(MediaValue.real(9.3e18).integer == nil)
        #expect(MediaValue.real(-2.5).integer == -2)
        #expect(MediaValue.real(.nan).integer == nil)
    }
}
