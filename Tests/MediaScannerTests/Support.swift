import Foundation
import MediaIndex
import SQLiteStore
import Library
import MediaModel
@testable import MediaScanner
import PostgresTestServer
import Testing
import TestSupport

/// A temporary directory tree for one test, with helpers to put real media files in it.
final class Sandbox {
    let url: URL
    var path: String { url.path }
    var library: String { url.appendingPathComponent("library.sqlite").path }
    var music: URL { url.appendingPathComponent("music") }

    /// The library's locator: `library` for SQLite, a new database for PostgreSQL.
    let locator: String

    init(store: Store = .sqlite) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("music"), withIntermediateDirectories: true)
        locator = try store.newLocator(sqlitePath: url.appendingPathComponent("library.sqlite").path)
    }
    deinit {
        _ = try? Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "u+rwx", url.path]).waitUntilExit()
        try? FileManager.default.removeItem(at: url)
    }

    /// Copies template `name` (see `Templates`) to `relative` under music/ and returns its path.
    @discardableResult
    func put(_ template: String, at relative: String) throws -> MediaPath {
        let destination = music.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Templates.url(template), to: destination)
        return MediaPath(destination.path)
    }

    func root() -> MediaPath { MediaPath(music.path) }

    func index() throws -> SQLiteIndex { try SQLiteIndex(path: library) }

    /// The library on its store (SQLite or PostgreSQL), opened as the CLI opens it.
    func store() throws -> any LibraryStore { try LibraryLocator(locator).open() }

    /// One scan of every root of the library (adding `roots` first), as `mlib scan` does.
    @discardableResult
    func scan(_ roots: [MediaPath]? = nil, batchSize: Int = 500) async throws -> ScanSummary {
        let index = try store()
        for root in roots ?? [self.root()] { try index.addRoot(root) }
        return try await MediaScanner(index: index, batchSize: batchSize).scan(try roots ?? index.roots())
    }
}

/// Small real media files made once per test run with ffmpeg; tests copy them.
enum Templates {
    private static let directory: URL = {
        // Shared by test runs (made once, not left behind per run); files appear by atomic rename.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-scan-templates-\(getuid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }()
    private static let lock = NSLock()

    /// Templates: "a.mp3", "b.flac", "c.ogg", "d.mp3" — distinct content and titles ("Alpha"…"Delta").
    static func url(_ name: String) throws -> URL {
        try lock.withLock {
            let url = directory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
            let specs: [String: (title: String, frequency: Int)] = ["a.mp3": ("Alpha", 440), "b.flac": ("Bravo", 550),
                                                                    "c.ogg": ("Charlie", 660), "d.mp3": ("Delta", 770)]
            let spec = try #require(specs[name], "no template \(name)")
            let partial = directory.appendingPathComponent("\(getpid())-\(name)")
            try ffmpeg(["-f", "lavfi", "-i", "sine=f=\(spec.frequency):d=1", "-metadata", "title=\(spec.title)",
                        "-metadata", "artist=Test Artist", partial.path])
            try #require(rename(partial.path, url.path) == 0)
            return url
        }
    }

    /// Rewrites `path`'s title in place (a retag: new size and mtime, same audio).
    static func retag(_ path: MediaPath, title: String) throws {
        let ext = path.fileExtension
        let temporary = path.string + ".retag." + ext
        try ffmpeg(["-i", path.string, "-map", "0", "-c", "copy", "-metadata", "title=\(title)", temporary])
        guard rename(temporary, path.string) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    static func ffmpeg(_ arguments: [String]) throws {
        let made = try ChildProcess.run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments)
        try #require(made.status == 0, "ffmpeg \(arguments) failed: \(made.stderr)")
    }
}

/// The state of an index that a clean scan must reproduce: every item's path and file-derived values.
func snapshot(_ index: any LibraryReader) throws -> [String] {
    try index.items(MediaQuery()).map { item in
        ([item.path.bytes.map { String(format: "%02x", $0) }.joined()]
            + MediaProperty.fileDerived.map { "\($0.rawValue)=\(item[$0].map(String.init(describing:)) ?? "nil")" })
            .joined(separator: " ")
    }.sorted()
}

/// Items the full-text index does not find by their own title: empty when it is in step with the rows.
func itemsNotFoundByTitle(_ index: any LibraryReader) throws -> [String] {
    try index.items(MediaQuery()).compactMap { item -> String? in
        guard let title = item.title, !FullTextSearch.queryTokens(title).isEmpty else { return nil }
        let found = try index.items(MediaQuery(filter: .search(title))).map(\.persistentID)
        return found.contains(item.persistentID) ? nil : title
    }
}

/// Size and mtime of the database file and its WAL: unchanged when nothing was written.
func fileStates(_ library: String) -> [String] {
    [library, library + "-wal"].map { path in
        var st = stat()
        guard stat(path, &st) == 0 else { return "\(path): none" }
        return "\(path): \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
    }
}
