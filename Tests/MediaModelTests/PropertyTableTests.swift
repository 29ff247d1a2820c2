import MediaModel
import Testing

struct PropertyTableTests {
    @Test func ordinalsFollowAllCases() {
        for (i, p) in MediaProperty.allCases.enumerated() { #expect(p.ordinal == i, "\(p)") }
        #expect(MediaProperty.allCases.count < 256)
    }

    @Test func everyPropertyRoundTripsThroughAnItem() {
        var item = MediaItem(path: MediaPath("/x.flac"))
        for p in MediaProperty.allCases where p != .path {
            let v: MediaValue = switch p.spec.type {
            case .text, .date: .text("v-\(p.rawValue)")
            case .integer, .mediaType: .integer(Int64(p.ordinal + 1))
            case .real, .timestamp, .duration: .real(Double(p.ordinal) + 0.5)
            case .bool: .bool(true)
            }
            item[p] = v
            #expect(item[p] == v, "\(p)")
        }
        #expect(item.setProperties.count == MediaProperty.allCases.count)
    }

    /// Split at the separator's bytes: a lone `;` or space is no separator, empty values are kept (the callers
    /// drop them), a combining mark after "; " starts the next value, and a text without one is one value.
    @Test func multiValuedTextSplitsAtTheSeparatorsBytes() {
        #expect(MediaProperty.valueSeparator.utf8.elementsEqual([UInt8(ascii: ";"), UInt8(ascii: " ")]))
        #expect(MediaProperty.splitValues("Rock; Jazz") == ["Rock", "Jazz"])
        #expect(MediaProperty.splitValues("Rock;Jazz; ") == ["Rock;Jazz", ""])
        #expect(MediaProperty.splitValues("; ") == ["", ""])
        #expect(MediaProperty.splitValues("") == [""])
        #expect(MediaProperty.splitValues(";") == [";"])
        #expect(MediaProperty.splitValues("Ab; \u{301}c; ; d") == ["Ab", "\u{301}c", "", "d"])
        #expect(MediaProperty.splitValues("Björk; Sigur Rós") == ["Björk", "Sigur Rós"])
    }

    @Test func namesResolve() {
        #expect(MediaProperty(name: "album") == .albumTitle)
        #expect(MediaProperty(name: "ALBUMARTIST") == .albumArtist)
        #expect(MediaProperty(name: "playbackDuration") == .playbackDuration)
        #expect(MediaProperty(name: "nonsense") == nil)
    }

    @Test func pathsKeepTheirBytes() {
        let p = MediaPath(bytes: Array("/music/caf".utf8) + [0xE9] + Array(".mp3".utf8))
        #expect(!p.isUTF8)
        #expect(p.fileExtension == "mp3")
        #expect(p.directory == MediaPath("/music"))
        #expect(p.hasPrefix(directory: MediaPath("/music")))
        #expect(!p.hasPrefix(directory: MediaPath("/mus")))
        // A directory is not under itself; a root written with its slash holds what is under it.
        #expect(!MediaPath("/music").hasPrefix(directory: MediaPath("/music")))
        #expect(p.hasPrefix(directory: MediaPath("/music/")) && p.hasPrefix(directory: MediaPath("/")))
        #expect(!MediaPath("/musical/x").hasPrefix(directory: MediaPath("/music")))
        #expect(MediaPath.reversibleText(p.bytes.dropFirst(7)) == "caf\u{EFE9}.mp3")
    }
}
