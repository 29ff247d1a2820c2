@testable import MediaProbe
import MediaModel
import Testing

/// The scales of ratings in tags (mlib(1), "Ratings in tags"); the files of Fixtures/odd/rating-* check the
/// readers end to end (FixtureTests, ScanInfoAgreementTests).
struct TagRatingTests {
    @Test func popmFollowsWindowsMediaPlayersScale() {
        // What WMP, foobar2000 and MusicBee write for 1…5 stars, and the edges of each band.
        #expect([1, 64, 128, 196, 255].map { TagRating.stars(key: "POPM", String($0)) } == [1, 2, 3, 4, 5])
        #expect([31, 32, 95, 96, 159, 160, 223, 224].map { TagRating.stars(key: "POPM", String($0)) } == [1, 2, 2, 3, 3, 4, 4, 5])
        #expect(TagRating.stars(key: "POPM", "0") == nil)         // 0: not rated
        #expect(TagRating.stars(key: "POPM", "256") == nil)
    }

    @Test func ratingTellsItsScaleByItsValue() {
        let cases: [(String, Int64?)] = [
            ("0.8", 4), ("1.0", 5), ("0.1", 1), ("0.5", 3),   // a fraction of 1
            ("1", 1), ("3", 3), ("5", 5), ("2.7", 3),          // stars (Matroska allows decimals)
            ("20", 1), ("60", 3), ("80", 4), ("100", 5), ("7", 1),   // percent
            ("0", nil), ("101", nil), ("-3", nil), ("good", nil), ("", nil),
        ]
        for (text, stars) in cases { #expect(TagRating.stars(key: "RATING", text) == stars, "RATING=\(text)") }
    }

    @Test func fmpsIsAFractionAndMP4RateAPercentage() {
        #expect(TagRating.stars(key: "FMPS_RATING", "0.6") == 3)
        #expect(TagRating.stars(key: "FMPS_RATING", "1") == 5)
        #expect(TagRating.stars(key: "FMPS_RATING", "4") == nil)
        #expect(TagRating.stars(key: "RATE", "5") == 1)
        #expect(TagRating.stars(key: "RATE", "100") == 5)
    }

    @Test func asfSharedUserRatingIsWindowsMediaPlayers() {
        #expect([1, 25, 50, 75, 99].map { TagRating.stars(key: "WM/SHAREDUSERRATING", String($0)) } == [1, 2, 3, 4, 5])
        #expect(TagRating.stars(key: "WM/SHAREDUSERRATING", "0") == nil)
        #expect(TagRating.stars(key: "WM/SHAREDUSERRATING", "101") == nil)
    }

    @Test func theFirstKnownKeyWinsAndUnratedFramesAreSkipped() {
        #expect(TagRating.stars(["RATING": "1", "POPM": "255"]) == 5)
        #expect(TagRating.stars(["POPM": "0; 128"]) == 3)
        #expect(TagRating.stars(["RATING": "0", "FMPS_RATING": "0.2"]) == 1)
        #expect(TagRating.stars(["TITLE": "x"]) == nil)
    }

    @Test func ffmpegsMP4RatingIsTheContentAdvisory() {
        // FFmpeg names MP4's rtng (explicit/clean) "rating"; a Vorbis or Matroska RATING arrives upper case.
        #expect(TagMapping.canonicalFFmpegKey("rating") == "ITUNESADVISORY")
        #expect(TagMapping.canonicalFFmpegKey("RATING") == "RATING")
    }
}
