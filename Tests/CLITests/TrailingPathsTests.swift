@testable import mlib
import Testing

/// The long path list of `info` bypasses the argument parser's quadratic array handling
/// (TrailingPaths.swift): the command it yields must be exactly what the parser alone would give.
struct TrailingPathsTests {
    static let paths = (1...150).map { "dir/file \($0).flac" }

    @Test(arguments: [
        ["info"] + paths,
        ["info", "--json"] + paths,
        ["info", "-f", "$title", "-j", "2"] + paths,
        ["info", "-j3", "--show", "title,artist"] + paths,
        ["info", "a.flac", "--jsonl", "b.flac"] + paths,
        ["info", "--show", "title"] + paths + ["--json"],
        ["info", "--"] + ["-odd.flac", "--also-odd.flac"] + paths,
        ["info", "-"] + paths + ["-"],
        ["info", "-j", "2", "x.flac"],
    ])
    func splitCommandMatchesTheParser(arguments: [String]) throws {
        let expected = try #require(try MLib.parseAsRoot(arguments) as? Info)
        let split = try #require(try TrailingPaths.parseAsRoot(MLib.self, arguments) as? Info)
        #expect(split.files == expected.files)
        #expect(split.format == expected.format && split.show == expected.show && split.jobs == expected.jobs)
        #expect(split.json == expected.json && split.jsonl == expected.jsonl && split.tags == expected.tags)
    }

    @Test func longListsAreSplitShortOnesAreNot() {
        let long = ["info", "-j", "2"] + Self.paths
        let (parsed, trailing) = TrailingPaths.split(long)
        // The run of plain arguments starts at "2", which may be (and is) the value of -j.
        #expect(parsed == ["info", "-j", "2"] + Self.paths.prefix(1))
        #expect(trailing == Array(Self.paths.dropFirst(1)))
        #expect(TrailingPaths.split(["info"] + Self.paths.prefix(10)).trailing.isEmpty)
        #expect(TrailingPaths.split(["ls"] + Self.paths).trailing.isEmpty)
    }
}
