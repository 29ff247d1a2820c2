@testable import DLNAServer
import Foundation
import MediaModel
import TestSupport
import Testing

/// A video's JPEG_TN still: a frame from a tenth of the way in (not the first frame, often black or a
/// title), at most 160 px on its longest side with the aspect kept, made once and then served from the
/// cache, and made again when the file is replaced. The end-to-end path (`/thumb/` offered in the DIDL-Lite
/// and fetched by a control point) is in DLNAClientTests; its speed in Benchmarks/dlna-bench.sh.
@Suite struct VideoThumbnailTests {
    /// The colour of a JPEG's middle pixel, as ffmpeg decodes it (r, g, b).
    private func middle(_ jpeg: [UInt8], in directory: URL) throws -> (Int, Int, Int, width: Int, height: Int) {
        let file = directory.appendingPathComponent("still-\(UUID().uuidString).jpg")
        try Data(jpeg).write(to: file)
        let size = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                                    "-of", "csv=p=0", file.path]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = size.split(separator: ",").compactMap { Int($0) }
        let pixel = try SpawnedProcess("ffmpeg", ["-v", "error", "-i", file.path, "-vf", "crop=2:2,scale=1:1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                                       stdout: .pipe, stderr: .pipe)
        let (out, _) = pixel.readToEnd()
        let rgb = [UInt8](out)
        guard rgb.count == 3, parts.count == 2 else { throw TestFailure("cannot read the still: \(size) \(rgb)") }
        return (Int(rgb[0]), Int(rgb[1]), Int(rgb[2]), parts[0], parts[1])
    }

    @Test func aStillFromATenthOfTheWayInScaledToJPEGTNAndCached() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-thumb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // 10 s at 640 × 360: red for the first half second, blue after; a key frame every second.
        let video = directory.appendingPathComponent("film.mp4")
        let make = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=640x360:r=25:d=0.5",
                                                   "-f", "lavfi", "-i", "color=c=blue:s=640x360:r=25:d=9.5",
                                                   "-filter_complex", "[0][1]concat=n=2:v=1:a=0", "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", video.path])
        #expect(make.status == 0, "\(make.stderr)")

        let thumbnails = VideoThumbnails()
        let first = try #require(thumbnails.jpeg(id: 7, path: MediaPath(video.path)))
        #expect(first.starts(with: [0xFF, 0xD8]), "a JPEG")
        let still = try middle(first, in: directory)
        #expect(still.width == 160 && still.height == 90, "\(still)")
        #expect(still.2 > 150 && still.0 < 80, "blue (1 s in), not the red first frame: \(still)")
        // Cached: the same bytes, however often asked.
        #expect(thumbnails.jpeg(id: 7, path: MediaPath(video.path)) == first)

        // Replaced in place (another size and time): a new still, from the new file.
        let replacement = directory.appendingPathComponent("new.mp4")
        let again = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=green:s=320x240:r=25:d=4",
                                                    "-c:v", "libx264", "-pix_fmt", "yuv420p", replacement.path])
        #expect(again.status == 0, "\(again.stderr)")
        try FileManager.default.removeItem(at: video)
        try FileManager.default.moveItem(at: replacement, to: video)
        let second = try #require(thumbnails.jpeg(id: 7, path: MediaPath(video.path)))
        let green = try middle(second, in: directory)
        #expect(green.width == 160 && green.height == 120 && green.1 > 100 && green.2 < 80, "\(green)")

        // No file, or no video in it: nothing (the server answers 404).
        #expect(thumbnails.jpeg(id: 8, path: MediaPath(directory.appendingPathComponent("gone.mp4").path)) == nil)
        let audio = directory.appendingPathComponent("tone.m4a")
        _ = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=d=1", audio.path])
        #expect(thumbnails.jpeg(id: 9, path: MediaPath(audio.path)) == nil)
    }
}
