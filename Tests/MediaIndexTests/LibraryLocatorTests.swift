import Foundation
@testable import MediaIndex
import Library
import Testing

struct LibraryLocatorTests {
    @Test(arguments: [
        ("/home/me/lib.sqlite", LibraryLocator.sqlite(path: "/home/me/lib.sqlite")),
        ("sqlite:/tmp/x.db", .sqlite(path: "/tmp/x.db")),
        ("relative.sqlite", .sqlite(path: "relative.sqlite")),
        ("postgres://mlib@nas:5432/music", .postgres(url: "postgres://mlib@nas:5432/music")),
        ("postgresql://nas/music", .postgres(url: "postgresql://nas/music")),
    ])
    func locatorsAreReadAsUsersWriteThem(_ text: String, _ expected: LibraryLocator) {
        #expect(LibraryLocator(text) == expected)
    }

    @Test func aServerLocatorIsNeverTakenForAFileName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-locator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: IndexError.self) { _ = try LibraryLocator("postgres://mlib@127.0.0.1/music").open() }
        #expect(!FileManager.default.fileExists(atPath: "postgres:"))
        let store = try LibraryLocator("sqlite:" + directory.appendingPathComponent("lib.sqlite").path).open()
        #expect(try store.roots().isEmpty)
    }
}
