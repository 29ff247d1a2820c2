import Foundation
import MediaModel
import Testing
@testable import Playlists

/// Export then import gives the same files in the same order, for every format and both path styles,
/// through real files on disk (so relative entries resolve against the playlist's real folder).
@Suite struct RoundTripTests {
    static let library = MediaPath("/srv/music library/Ünïcödé")

    static func items(under root: MediaPath) -> [MediaItem] {
        var list = awkwardNames().enumerated().map { i, name in
            item(root.appending(name), title: "Title \(i) & <more> \"q\" 'a' #\(i) 100%", artist: "Artist Ø \(i)",
                 album: "Album; of\u{1} songs", duration: Double(i) * 61.25 + 0.4, track: i + 1)
        }
        list.append(item(MediaPath("/elsewhere/other disk/x.flac")))           // outside the root: needs ../
        list.append(list[0])                                                   // duplicates keep their place
        return list
    }

    @Test(arguments: PlaylistFormat.allCases)
    func absolutePaths(format: PlaylistFormat) throws {
        let dir = try TempDirectory()
        defer { dir.remove() }
        let items = Self.items(under: Self.library)
        let file = dir.mediaPath.appending(MediaPath("list.\(format.fileExtension)"))
        try FileBytes.writeAtomically(PlaylistWriter.data(for: items, format: format), to: file)

        let doc = try PlaylistReader.read(contentsOf: file)
        #expect(doc.entries.map(\.location) == items.map { .file($0.path) })
    }

    @Test(arguments: PlaylistFormat.allCases)
    func pathsRelativeToThePlaylistFolder(format: PlaylistFormat) throws {
        let dir = try TempDirectory()
        defer { dir.remove() }
        let folder = dir.mediaPath.appending(MediaPath("playlists/sub"))
        try FileManager.default.createDirectory(atPath: folder.string, withIntermediateDirectories: true)
        let items = Self.items(under: dir.mediaPath.appending(MediaPath("music")))
        let file = folder.appending(MediaPath("list.\(format.fileExtension)"))
        let options = PlaylistWriter.Options(paths: .relative(to: folder), title: "Mix & <match>")
        let data = PlaylistWriter.data(for: items, format: format, options: options)
        try FileBytes.writeAtomically(data, to: file)

        let text = String(decoding: data, as: UTF8.self)
        if [.xspf, .jspf, .json].contains(format) {   // line formats write a name with a line break as a file URI
            #expect(!text.contains(dir.path), "every path relative in \(format)")
        }
        #expect(text.contains("../../music/"))
        let doc = try PlaylistReader.read(contentsOf: file)
        #expect(doc.entries.map(\.location) == items.map { .file($0.path) })
        if [.xspf, .jspf, .m3u, .m3u8].contains(format) { #expect(doc.title == "Mix & <match>") }
    }

    @Test(arguments: [PlaylistFormat.xspf, .jspf, .json])
    func metadataSurvives(format: PlaylistFormat) throws {
        let items = Self.items(under: Self.library)
        let doc = try PlaylistReader.read(PlaylistWriter.data(for: items, format: format), format: format, base: MediaPath("/"))
        #expect(doc.entries.map(\.title) == items.map(\.title))
        #expect(doc.entries.map(\.artist) == items.map(\.artist))
        // XML 1.0 cannot carry C0 control characters: XSPF drops them (documented).
        let dropControls = { (s: String?) in s.map { String($0.unicodeScalars.filter { $0.value >= 0x20 }) } }
        #expect(doc.entries.map(\.album) == items.map { format == .xspf ? dropControls($0.albumTitle) : $0.albumTitle })
        for (entry, item) in zip(doc.entries, items) where item.playbackDuration > 0 {
            #expect(abs(entry.duration! - item.playbackDuration) < 0.001)
        }
    }

    @Test(arguments: [PlaylistFormat.m3u, .m3u8, .pls])
    func lineFormatsCarryDisplayTitleAndWholeSeconds(format: PlaylistFormat) throws {
        let one = item(MediaPath("/a.mp3"), title: "Song", artist: "Band", duration: 61.6)
        let doc = try PlaylistReader.read(PlaylistWriter.data(for: [one], format: format), format: format, base: MediaPath("/"))
        #expect(doc.entries.first?.title == "Band - Song")
        #expect(doc.entries.first?.duration == 62)
    }

    @Test func emptyPlaylistsAreValid() throws {
        for format in PlaylistFormat.allCases {
            let doc = try PlaylistReader.read(PlaylistWriter.data(for: [], format: format), format: format, base: MediaPath("/"))
            #expect(doc.entries.isEmpty, "\(format)")
        }
    }
}
