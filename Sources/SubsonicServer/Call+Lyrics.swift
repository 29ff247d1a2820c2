import Foundation
import Library
import MediaModel
import MediaProbe

// Lyrics (issue 41): what the scan stored for an item (`Library.lyrics(ofItem:)`), never read from the file
// here. `getLyrics` (Subsonic 1.2: by artist and title, plain text) and `getLyricsBySongId` (OpenSubsonic
// `songLyrics` v1: every set, structured lines).
extension Call {
    /// The first song whose artist and title are those asked (case and accents folded, `TextFolding`), and
    /// its preferred set as plain text; when none is found, a `lyrics` element with an empty value (the
    /// OpenSubsonic description requires one).
    func lyrics() async throws -> Node {
        let catalog = server.catalog
        let artist = parameters["artist"].map(TextFolding.folded), title = parameters["title"].map(TextFolding.folded)
        var node = Node("lyrics")
        var empty = node
        empty.set("value", "")
        guard artist != nil || title != nil else { return empty }
        let match = (0..<Int32(catalog.view.ids.count)).first { item in
            (artist.map { $0 == catalog.value(item, Catalog.Slot.artist).map(TextFolding.folded) } ?? true)
                && (title.map { $0 == catalog.value(item, Catalog.Slot.title).map(TextFolding.folded) } ?? true)
        }
        guard let match else { return empty }
        let id = catalog.view.ids[Int(match)]
        let library = server.library
        let sets = try await server.offLoop { try library.lyrics(ofItem: id) }
        guard let chosen = LyricsReader.preferred(sets) else { return empty }
        node.set("artist", catalog.value(match, Catalog.Slot.artist))
        node.set("title", catalog.value(match, Catalog.Slot.title))
        node.set("value", chosen.text)
        return node
    }

    /// Every stored set of the song `id`, synced ones with their lines' start times (ms). The times are
    /// stored with the LRC `[offset:]` already applied, so `offset` is 0 (a client adds it to every time).
    func lyricsBySongID() async throws -> Node {
        let catalog = server.catalog
        let text = try parameters.required("id")
        guard let item = catalog.item(id: text) else { throw SubsonicError.notFound("Song \(text)") }
        let id = catalog.view.ids[Int(item)]
        let library = server.library
        let sets = try await server.offLoop { try library.lyrics(ofItem: id) }
        var list = Node("lyricsList")
        list.add(list: "structuredLyrics", sets.map { set in
            var node = Node("structuredLyrics")
            node.set("displayArtist", catalog.value(item, Catalog.Slot.artist))
            node.set("displayTitle", catalog.value(item, Catalog.Slot.title))
            node.set("lang", set.language ?? "xxx")           // ISO 639's "undetermined"-like code, as Navidrome sends
            node.set("offset", 0)
            node.set("synced", set.isSynced)
            if let lines = set.lines {
                node.add(list: "line", lines.map { line in
                    var l = Node("line")
                    l.set("start", line.startMs)
                    l.set("value", line.text)
                    return l
                })
            } else {
                node.add(list: "line", set.text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    var l = Node("line")
                    l.set("value", String(line))
                    return l
                })
            }
            return node
        })
        return list
    }
}
