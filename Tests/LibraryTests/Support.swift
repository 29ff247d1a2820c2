import Foundation
import TestSupport

/// A temporary folder: `music/` and a library file beside it.
struct TemporaryLibrary {
    let directory: URL
    var music: URL { directory.appendingPathComponent("music") }
    var library: String { directory.appendingPathComponent("library.sqlite").path }

    /// `fixtures`: files of Fixtures/ copied into music/.
    init(_ label: String, copying fixtures: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        for name in fixtures {
            try FileManager.default.copyItem(at: ChildProcess.repo.appendingPathComponent("Fixtures/\(name)"),
                                             to: music.appendingPathComponent(name))
        }
    }

    /// `mlib ARGS --library LIBRARY`, which must succeed.
    @discardableResult
    func mlib(_ arguments: [String]) throws -> ChildProcess.Output {
        let result = try ChildProcess.run(ChildProcess.mlib.path, arguments + ["--library", library])
        guard result.status == 0 else { throw TestFailure("mlib \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// An executable built beside the test bundle (as `ChildProcess.mlib` finds mlib).
func builtProgram(_ name: String) -> URL {
    ChildProcess.mlib.deletingLastPathComponent().appendingPathComponent(name)
}
