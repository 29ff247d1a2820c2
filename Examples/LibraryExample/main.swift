// README's "As a Swift library" example: LibraryTests runs it on a folder of fixtures and checks that
// README.md shows this file's code, from the `import` lines to the end.
import Library
import MediaIndex
import MediaModel
import Playback

// The library mlib itself uses ($MLIB_LIBRARY, else ~/.local/share/mlib/library.sqlite), made if need be.
let library = try Library.open(mode: .create)
let music = MediaPath(CommandLine.arguments.dropFirst().first ?? "/home/me/Music")
let scan = try await library.scan([music])            // as `mlib scan`: lock, scan, playlist files mirrored
print("\(scan.summary.added) added, \(scan.summary.updated) updated")

// Albums by an artist, as `mlib ls --group albums artist:björk` lists them.
var query = MediaQuery.albums()
query.addFilterPredicate(MediaPropertyPredicate(value: "Björk", forProperty: .artist, comparisonType: .contains))
for album in try library.store.collections(query) {
    print(album.representativeItem?.albumTitle ?? "?", album.count)
}

// A smart playlist (as `mlib playlist smart`), its items played, the plays recorded as `mlib play` does.
if try library.store.playlist(named: "Björk") == nil {
    try library.store.createPlaylist(name: "Björk", smart: SmartPlaylistRule(predicate: "artist:björk", limit: 10))
}
let player = MusicPlayer(sink: NullSink(realTime: false))   // try PulseSink() to hear it
let (events, feed) = AsyncStream<PlayerEvent>.makeStream()
_ = player.addObserver { feed.yield($0) }
player.setQueue(with: try library.items(ofPlaylist: "Björk") ?? [])
if !player.queue.isEmpty {
    player.play()
    for await event in events {
        if case .itemDidEnd(let end) = event { try library.record(end) }   // play count, skip count, last played
        if case .playbackStateDidChange(.stopped) = event, player.nowPlayingItem == nil { break }
    }
}
try player.close()
for item in try library.items(ofPlaylist: "Björk") ?? [] {
    print(item.title ?? item.path.string, "played \(item.playCount) times")
}
