import ArgumentParser
import Foundation
import MediaModel
import Playlists

/// Where and how a playlist is written, shared by `mlib export` and `mlib playlist export`.
struct PlaylistOutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Playlist format: m3u8, m3u, pls, xspf, jspf or json (default: the extension of -o, else m3u8).",
        valueName: "format"))
    var format: PlaylistFormat?

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Write to this file, atomically (a temporary file renamed over it), instead of standard output.",
        valueName: "file"), completion: .file())
    var output: String?

    @Option(name: .long, help: ArgumentHelp(
        "Write paths relative to this directory, with ../ where needed (default: absolute paths).", valueName: "dir"), completion: .directory)
    var relativeTo: String?

    @Flag(name: .long, help: "Write paths relative to the folder of the -o file.")
    var relative = false

    func validate() throws {
        if relative && output == nil { throw ValidationError("--relative needs -o FILE (paths relative to its folder).") }
        if relative && relativeTo != nil { throw ValidationError("give either --relative or --relative-to, not both.") }
    }

    var resolvedFormat: PlaylistFormat {
        if let format { return format }
        return output.flatMap { PlaylistFormat(pathExtension: MediaPath($0).fileExtension) } ?? .m3u8
    }

    var outputPath: MediaPath? { output.map { Self.absolute($0) } }

    func writer(title: String?) -> PlaylistWriter {
        var paths = PlaylistWriter.PathStyle.absolute
        if let relativeTo { paths = .relative(to: Self.absolute(relativeTo)) }
        if relative, let outputPath { paths = .relative(to: outputPath.directory) }
        return PlaylistWriter(format: resolvedFormat, options: .init(paths: paths, title: title))
    }

    /// Writes the finished playlist to -o (atomically) or standard output. A failure is one line, exit 1.
    func emit(_ bytes: [UInt8]) throws {
        guard let outputPath else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        try FileBytes.writeAtomically(bytes, to: outputPath)
    }

    /// `path` made absolute against the working directory and normalized (no symlinks resolved).
    static func absolute(_ path: String) -> MediaPath {
        let p = MediaPath(path)
        return p.resolved(against: MediaPath(FileManager.default.currentDirectoryPath))
    }
}
