import MediaModel
import Testing

/// `MediaPath.reversibleText`: the text a front whose names are text (MPD's URIs) shows for a path, which
/// gives the same bytes back (issue 39: MPD URIs carried U+FFFD, which names no file).
struct ReversibleTextTests {
    @Test func aLatin1NameReadsAsPrivateUseCharactersAndComesBack() {
        let latin1 = MediaPath(bytes: Array("Album/caf".utf8) + [0xE9] + Array(".flac".utf8))
        #expect(latin1.reversibleText == "Album/caf\u{EFE9}.flac")
        #expect(MediaPath(reversibleText: latin1.reversibleText) == latin1)
    }

    @Test func aUTF8NameIsItself() {
        let name = MediaPath("Кино/Группа крови — Déjà vu.mp3")
        #expect(name.reversibleText == name.string)
        #expect(MediaPath(reversibleText: name.string) == name)
    }

    /// A name holding U+EF80…U+EFFF itself is written as its three bytes mapped, so the rule reverses on it too.
    @Test func aNameHoldingTheMappedCharactersComesBack() {
        let name = MediaPath("a\u{EF80}b\u{EFFF}.ogg")
        #expect(name.reversibleText != name.string)
        #expect(MediaPath(reversibleText: name.reversibleText) == name)
    }

    @Test func everyByteStringComesBack() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...12, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let path = MediaPath(bytes: bytes)
            #expect(MediaPath(reversibleText: path.reversibleText) == path, "\(bytes)")
        }
    }
}
