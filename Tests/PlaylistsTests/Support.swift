import Foundation
import MediaModel
@testable import Playlists
import TestSupport

/// A fresh directory under the system temp dir, removed by `remove()`.
struct TempDirectory {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "mlib-playlists-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    var mediaPath: MediaPath { MediaPath(path) }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

func item(_ path: MediaPath, title: String? = nil, artist: String? = nil, album: String? = nil,
          duration: Double? = nil, track: Int? = nil) -> MediaItem {
    var item = MediaItem(path: path)
    item.title = title
    item.artist = artist
    item.albumTitle = album
    if let duration { item.playbackDuration = duration }
    if let track { item[.albumTrackNumber] = .integer(Int64(track)) }
    return item
}

/// File names that break naive writers: non-ASCII, spaces, `#`, `&`, `%`, quotes, URI-looking parts, a
/// name starting with `#`, a line break, a tab, and bytes that are not UTF-8.
func awkwardNames() -> [MediaPath] {
    [
        MediaPath("Björk/Homogenic/01 Jóga.flac"),
        MediaPath("AC DC/#1 hits & more/100% Pure 'Rock' \"Live\".mp3"),
        MediaPath("日本語/曲 #2.ogg"),
        MediaPath("odd;chars,x=y?z[1]/a+b@c <d>.opus"),
        MediaPath("#starts with hash.mp3"),
        MediaPath("http:/not a url.mp3"),
        MediaPath("%41 looks escaped %zz.mp3"),
        MediaPath("line\nbreak.mp3"),
        MediaPath("tab\tin name.wav"),
        MediaPath(bytes: Array("latin1 caf".utf8) + [0xE9] + Array(".mp3".utf8)),
        MediaPath(bytes: Array("dir ".utf8) + [0xFF, 0xFE] + Array("/x.flac".utf8)),
    ]
}

/// Runs a program, returning its exit status and standard output (standard error is collected too).
@discardableResult
func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let r = try ChildProcess.run(program, arguments)
    return (r.status, r.out, r.stderr)
}

func toolExists(_ name: String) -> Bool { ChildProcess.exists(name) }
