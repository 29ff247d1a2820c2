import Foundation
@testable import MediaIndex
@testable import PostgresStore
import Testing

/// A PostgreSQL locator without a password takes it from libpq's password file, matched as libpq does.
struct PostgresPassFileTests {
    static func passFile(_ text: String, mode: mode_t = 0o600) throws -> (directory: URL, path: String) {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("pgpass").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, mode)
        return (directory, path)
    }

    static let lines = """
        # host:port:database:user:password
        db.example:5432:music:ann:first
        db.example:*:*:ann:wild\\:card\\\\
        /run/pg:5433:*:bob:socket
        localhost:5432:*:carl:local
        """

    @Test func theFirstMatchingLineGivesThePassword() throws {
        let (directory, file) = try Self.passFile(Self.lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        func password(_ url: String, _ env: [String: String] = [:]) throws -> String? {
            try PostgresLocation(url: url, environment: env.merging(["PGPASSFILE": file]) { a, _ in a }).password
        }
        #expect(try password("postgres://ann@db.example/music") == "first")
        #expect(try password("postgres://ann@db.example:6000/other") == "wild:card\\", "wildcards; \\: and \\\\ unescaped")
        #expect(try password("postgres://ann:given@db.example/music") == "given", "a password in the locator wins")
        #expect(try password("postgres://ann@db.example/music", ["PGPASSWORD": "env"]) == "env")
        #expect(try password("postgres://bob@%2Frun%2Fpg:5433/x") == "socket", "a socket directory matches its own path")
        #expect(try password("postgres://carl@/x") == "local", "libpq's default socket directory is localhost")
        #expect(try password("postgres://carl@%2Ftmp/x") == nil)
        #expect(try password("postgres://dan@db.example/music") == nil)
        #expect(try password("postgres://ann@db.example/music?passfile=/nonexistent") == nil, "passfile= in the locator wins")
    }

    @Test func aPasswordFileOthersCanReadIsIgnoredWithLibpqsWarning() throws {
        let (directory, file) = try Self.passFile(Self.lines, mode: 0o640)
        defer { try? FileManager.default.removeItem(at: directory) }
        var warnings: [String] = []
        #expect(PostgresPassFile(path: file, warn: { warnings.append($0) }) == nil)
        #expect(warnings == ["WARNING: password file \"\(file)\" has group or world access; permissions should be u=rw (0600) or less"])
        #expect(PostgresPassFile(path: file, warn: { warnings.append($0) }) == nil)
        #expect(warnings.count == 1, "once per file")
        #expect(try PostgresLocation(url: "postgres://ann@db.example/music", environment: ["PGPASSFILE": file]).password == nil)
    }
}
