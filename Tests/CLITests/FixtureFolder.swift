import Foundation

/// A temporary folder for a CLI test: `music/` holding copies of some fixtures, and the path of a library
/// beside it (made by the first scan). The set-up several suites wrote out each time.
struct FixtureFolder {
    let dir: URL
    let music: URL
    let library: String

    /// `fixtures` are paths below Fixtures/, copied into music/ under their own names, or under `names`.
    init(_ label: String, copying fixtures: [String], as names: [String]? = nil) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-\(label)-\(UUID().uuidString)")
        music = dir.appendingPathComponent("music")
        library = dir.appendingPathComponent("library.sqlite").path
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        for (i, fixture) in fixtures.enumerated() {
            let name = names?[i] ?? URL(fileURLWithPath: fixture).lastPathComponent
            try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent(fixture), to: music.appendingPathComponent(name))
        }
    }

    /// `mlib ARGS --library LIBRARY`.
    func mlib(_ args: [String]) throws -> CLI.Result { try CLI.run(args + ["--library", library]) }

    /// A quiet scan of music/ into the library.
    func scan() throws -> CLI.Result { try mlib(["scan", "--quiet", music.path]) }

    func remove() { try? FileManager.default.removeItem(at: dir) }
}
