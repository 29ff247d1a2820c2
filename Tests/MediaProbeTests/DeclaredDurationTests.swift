import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// Issue 25's truncation rule, one for every format: a file cut short has as its duration the audio present,
/// keeps the length its header declares as `declaredDuration`, and is flagged; a whole file has no declared
/// duration. Real 5-second files made by ffmpeg (larger than the head and tail windows), cut at half, read
/// by both probe paths (the scan's `.library` and `info`'s `.streams`), which must agree.
struct DeclaredDurationTests {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A format: its file name and ffmpeg's output options (the input is 5 s of pink noise, and for video a
    /// 25 fps test picture; bit rates high enough for the file to outgrow the head and tail windows).
    /// `declares`: the format states a length a cut file no longer holds (Ogg has none: its length is the
    /// last page's, which is what is there).
    struct Format: Sendable, CustomStringConvertible {
        var file: String
        var options: [String]
        var video = false
        var declares = true
        var description: String { file }
    }

    static let formats: [Format] = [
        Format(file: "cut.mp3", options: ["-c:a", "libmp3lame", "-b:a", "320k"]),
        Format(file: "cut.flac", options: ["-c:a", "flac"]),
        Format(file: "cut.m4a", options: ["-c:a", "aac", "-ac", "2", "-b:a", "320k", "-movflags", "+faststart"]),
        Format(file: "cut.wma", options: ["-c:a", "wmav2", "-b:a", "256k"]),
        Format(file: "cut.wav", options: ["-c:a", "pcm_s16le"]),
        Format(file: "cut.mp4", options: ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-movflags", "+faststart"], video: true),
        Format(file: "cut.ogv", options: ["-c:v", "libtheora", "-q:v", "5", "-c:a", "libvorbis"], video: true, declares: false),
    ]

    /// Makes the whole file and a copy cut at `fraction` of its bytes in a new directory; returns both paths.
    static func make(_ format: Format, fraction: Double = 0.5) throws -> (dir: URL, whole: MediaPath, cut: MediaPath) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-declared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let whole = dir.appendingPathComponent("whole-" + format.file), cut = dir.appendingPathComponent(format.file)
        var inputs = ["-f", "lavfi", "-i", "anoisesrc=d=5:c=pink:r=44100:a=0.3"]
        if format.video { inputs = ["-f", "lavfi", "-i", "testsrc=d=5:s=320x240:r=25"] + inputs }
        let made = try ChildProcess.run(Self.ffmpeg!, ["-nostdin", "-v", "error", "-y"] + inputs + format.options + [whole.path])
        try #require(made.status == 0, "ffmpeg could not make \(format.file): \(made.stderr)")
        let data = try Data(contentsOf: whole)
        try #require(data.count > 2 * MediaFile.window, "\(format.file) is inside the head and tail windows")
        try data.prefix(Int(Double(data.count) * fraction)).write(to: cut)
        return (dir, MediaPath(whole.path), MediaPath(cut.path))
    }

    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"), arguments: formats)
    func aCutFileHasTheAudioPresentAsItsDurationAndKeepsTheDeclaredOne(_ format: Format) throws {
        let (dir, wholePath, cutPath) = try Self.make(format)
        defer { try? FileManager.default.removeItem(at: dir) }
        for detail in [MediaProbe.Detail.library, .streams] {
            let whole = try MediaProbe.probe(wholePath, detail: detail)
            #expect(whole.item[.declaredDuration] == nil, "\(format) whole, \(detail)")
            #expect(abs((whole.item.playbackDuration ?? 0) - 5) < 0.1, "\(format) whole, \(detail): \(whole.item.playbackDuration ?? -1)")

            let cut = try MediaProbe.probe(cutPath, detail: detail)
            let duration = cut.item.playbackDuration ?? -1
            // Half the bytes: about half the audio (the headers and an estimate at the stream's bit rate
            // allow some slack), never the header's five seconds.
            #expect(duration > 2.0 && duration < 3.0, "\(format) cut, \(detail): duration \(duration)")
            #expect(cut.isPartial && cut.item[.isPartial] == .bool(true), "\(format) cut, \(detail): not flagged")
            if format.declares {
                let declared = cut.item[.declaredDuration]?.real ?? -1
                #expect(abs(declared - 5) < 0.1, "\(format) cut, \(detail): declared \(declared)")
            } else {
                #expect(cut.item[.declaredDuration] == nil, "\(format) cut, \(detail)")
            }
            // `info` shows no stream longer than the item.
            for stream in cut.streams {
                #expect((stream.duration ?? 0) <= duration + 0.001, "\(format) cut, \(detail): stream #\(stream.index) \(stream.duration ?? -1)")
            }
        }
        let library = try MediaProbe.probe(cutPath, detail: .library), streams = try MediaProbe.probe(cutPath, detail: .streams)
        #expect(library.item.playbackDuration == streams.item.playbackDuration, "\(format): the scan and info disagree")
        #expect(library.item[.declaredDuration] == streams.item[.declaredDuration], "\(format): the scan and info disagree")
    }

    @Test func theDeclaredDurationIsAPropertyByNameAndAlias() {
        #expect(MediaProperty(name: "declaredDuration") == .declaredDuration)
        #expect(MediaProperty(name: "declared") == .declaredDuration)
        #expect(MediaProperty.declaredDuration.spec.type == .duration)
        #expect(MediaProperty.fileDerived.contains(.declaredDuration))
    }
}
