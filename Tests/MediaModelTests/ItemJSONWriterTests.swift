import MediaModel
import Testing

/// `ls --json` writes items straight to bytes (`MediaItem.writeJSON`); `info --json` and playlists build
/// the tree (`MediaItem.json()`). Both must print the same item the same way, byte for byte.
struct ItemJSONWriterTests {
    static func items() -> [MediaItem] {
        var plain = MediaItem(path: MediaPath("/music/a.flac"))
        plain.persistentID = 42
        var rich = MediaItem(path: MediaPath(bytes: Array("/music/caf".utf8) + [0xE9] + Array(" \"q\"\\.mp3".utf8)),
                             tags: ["TITLE": "Tab\there", "COMMENT": "line\nbreak \u{01} \u{1F}", "Z": "", "ARTIST": "Ä; B"])
        rich.persistentID = -7
        rich.title = "Quote \" and backslash \\ and ünïcödé 🎵"
        rich.artist = "Rock; Jazz"              // multi-valued: an array
        rich.genre = "Pop"                      // multi-valued with one value: a string
        rich.mediaType = .music
        rich.playbackDuration = 0.1 + 0.2       // binary noise rounded as documented
        rich[.year] = .integer(Int64.min)
        rich[.playCount] = .integer(Int64.max)
        rich[.rating] = .integer(0)
        return [plain, rich, MediaItem(path: MediaPath(""))]
    }

    @Test(arguments: [true, false])
    func writtenBytesEqualTheTree(includeTags: Bool) {
        for item in Self.items() {
            var written: [UInt8] = []
            item.writeJSON(into: &written, includeTags: includeTags)
            #expect(String(decoding: written, as: UTF8.self) == item.json(includeTags: includeTags).serialized())
        }
    }

    @Test func aHostFollowsThePath() throws {
        for item in Self.items() {
            var written: [UInt8] = []
            item.writeJSON(into: &written, host: "alpha \"lab\"")
            guard case .object(var members) = item.json() else { Issue.record("not an object"); return }
            members.insert(("host", .string("alpha \"lab\"")), at: 1)
            #expect(String(decoding: written, as: UTF8.self) == JSONValue.object(members).serialized())
            #expect(try JSONValue(parsing: String(decoding: written, as: UTF8.self)) == .object(members))
        }
    }
}
