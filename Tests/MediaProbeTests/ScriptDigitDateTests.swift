import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// Issue 49: a date written in another script's decimal digits (an ID3v2.4 TDRC "٢٠٠٤-٠٣-٠٥", Arabic-Indic, as
/// some Arabic-locale taggers write it) is the date mutagen reads (2004-03-05); mlib read no date and no year.
struct ScriptDigitDateTests {
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil, "ffmpeg is not installed"))
    func anArabicIndicDateIsRead() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.scriptDigitDateMP3(dir, date: "٢٠٠٤-٠٣-٠٥")
        for detail in [MediaProbe.Detail.library, .streams] {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(r.item[.releaseDate] == .text("2004-03-05"), "\(detail): \(r.item[.releaseDate].debugDescription)")
            #expect(r.item[.year] == .integer(2004), "\(detail)")
            #expect(r.item.title == "Arabic")
        }
    }

    @Test func otherScriptsDigitsAreDigits() {
        #expect(TagMapping.releaseDate("٢٠٠٤") == "2004")
        #expect(TagMapping.releaseDate("２００４-０３") == "2004-03")                // full-width
        #expect(TagMapping.releaseDate("२००४-०३-०५") == "2004-03-05")     // Devanagari
        #expect(TagMapping.releaseDate("2004-03-05") == "2004-03-05")
    }
}
