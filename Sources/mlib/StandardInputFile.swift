import Foundation
import MediaModel

/// Standard input copied to a temporary file, for `mlib info -`: a pipe cannot seek, and TagLib and
/// FFmpeg's demuxers do (an MP4 keeps its index at the end, an ID3v1 tag is the last 128 bytes).
struct StandardInputFile {
    let path: MediaPath

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-stdin-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CLIError.input("-: cannot copy standard input to \(url.path)")
        }
        let output = try FileHandle(forWritingTo: url)
        defer { try? output.close() }
        // In blocks, so a large file is never wholly in memory.
        while let block = try FileHandle.standardInput.read(upToCount: 1 << 20), !block.isEmpty {
            try output.write(contentsOf: block)
        }
        path = MediaPath(url.path)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path.string) }
}
