import Foundation

/// A temporary folder for a test that runs `mlib` as a child process: a media folder, a home of its own and a
/// library file, with the environment that makes every spawned `mlib` use them (`MLIB_LIBRARY`, `HOME`,
/// `XDG_CONFIG_HOME`: never the machine's own configuration). The server tests made these by hand, each the
/// same six lines; `remove()` deletes the whole folder.
public struct ScratchLibrary: Sendable {
    /// The folder holding everything below.
    public let base: URL
    /// The media folder (`base/<name>`), made empty.
    public let media: URL
    /// `HOME` of the children (`base/home`); their configuration goes to `home/.config`.
    public let home: URL
    /// What children get; change `MLIB_LIBRARY` to point them at another store (a PostgreSQL locator).
    public var environment: [String: String]

    /// Makes `<temporary directory>/<prefix>-<uuid>` with an empty media folder `media` and a home.
    public init(_ prefix: String = "mlib-test", media: String = "music") throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        self.media = base.appendingPathComponent(media)
        home = base.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: self.media, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = ["MLIB_LIBRARY": base.appendingPathComponent("library.sqlite").path, "HOME": home.path,
                       "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path]
    }

    /// The SQLite file the environment names at first (`base/library.sqlite`).
    public var sqliteFile: URL { base.appendingPathComponent("library.sqlite") }

    /// Copies `Fixtures/<name>` into the media folder as `target` (its name by default; a relative path makes
    /// its folders) and answers where it went.
    @discardableResult
    public func copyFixture(_ name: String, as target: String? = nil) throws -> URL {
        let destination = media.appendingPathComponent(target ?? name)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ChildProcess.repo.appendingPathComponent("Fixtures").appendingPathComponent(name), to: destination)
        return destination
    }

    /// Runs `mlib` with `arguments` in this environment; throws with its standard error unless it exits 0.
    @discardableResult
    public func mlib(_ arguments: [String]) throws -> ChildProcess.Output {
        let run = try ChildProcess.run(ChildProcess.mlib.path, arguments, environment: environment)
        guard run.status == 0 else { throw TestFailure("mlib \(arguments.joined(separator: " ")) exited \(run.status): \(run.stderr)") }
        return run
    }

    /// `mlib scan <options> <media folder>`, which must exit 0.
    @discardableResult
    public func scan(_ options: [String] = []) throws -> ChildProcess.Output {
        try mlib(["scan"] + options + [media.path])
    }

    public func remove() { try? FileManager.default.removeItem(at: base) }
}
