import Foundation
import TestSupport
import Testing

/// README's "As a Swift library" example is Examples/LibraryExample/main.swift: it compiles (it is a target
/// of the package), the README shows it as it is, and it runs: opens the default library with
/// `Library.open`, scans, queries, plays a smart playlist's items and records the plays.
@Suite(.enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct ReadmeExampleTests {
    static let source = ChildProcess.repo.appendingPathComponent("Examples/LibraryExample/main.swift")

    @Test func theReadmeShowsTheExampleProgram() throws {
        let program = try String(contentsOf: Self.source, encoding: .utf8)
        let code = try #require(program.range(of: "import Library")).lowerBound
        let readme = try String(contentsOf: ChildProcess.repo.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + program[code...] + "```\n"), "README.md's Swift example differs from \(Self.source.path)")
    }

    @Test func theExampleOpensTheDefaultLibraryScansQueriesAndPlays() throws {
        let folder = try TemporaryLibrary("example")
        defer { folder.remove() }
        for (title, track) in [("Hunter", 1), ("Jóga", 2)] {
            let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-ac", "1",
                                                       "-metadata", "title=\(title)", "-metadata", "artist=Björk",
                                                       "-metadata", "album=Homogenic", "-metadata", "track=\(track)",
                                                       folder.music.appendingPathComponent("\(track).flac").path])
            try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        }
        // No --library anywhere: the library is the default one, under XDG_DATA_HOME.
        let data = folder.directory.appendingPathComponent("data")
        let run = try ChildProcess.run(builtProgram("library-example").path, [folder.music.path],
                                       environment: ["MLIB_LIBRARY": "", "XDG_DATA_HOME": data.path])
        try #require(run.status == 0, "library-example: \(run.stderr)")
        #expect(run.out == """
            2 added, 0 updated
            Homogenic 2
            Hunter played 1 times
            Jóga played 1 times

            """)
        #expect(FileManager.default.fileExists(atPath: data.path + "/mlib/library.sqlite"))
    }
}
