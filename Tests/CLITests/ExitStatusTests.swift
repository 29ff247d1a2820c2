import Foundation
import Testing
import TestSupport

/// mlib(1)'s EXIT STATUS, held for every command: a missing library, a corrupt one, a usage error and a
/// scan lock held by another process each end with the documented status and one "mlib: " line, and a
/// mistyped --library path creates nothing.
@Suite(.serialized) struct ExitStatusTests {
    let dir: URL
    let music: URL
    let library: String

    init() throws {
        let folder = try FixtureFolder("exit", copying: ["mp3-id3v24.mp3", "flac-vorbis-cover.flac"])
        (dir, music, library) = (folder.dir, folder.music, folder.library)
        let scan = try folder.scan()
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try CLI.run(["playlist", "create", "P", "--library", library]).status == 0)
        try Data("#EXTM3U\n\(music.path)/mp3-id3v24.mp3\n".utf8).write(to: dir.appendingPathComponent("in.m3u8"))
    }

    /// Every command that opens a library; `creates` when it may make a new one (it fills it).
    struct Command: CustomStringConvertible {
        var args: [String]
        var creates = false
        /// Takes the scan lock (fails at once with 3 while another process holds it).
        var locks = false
        var description: String { args.joined(separator: " ") }
    }

    var commands: [Command] {
        [
            Command(args: ["ls"]), Command(args: ["query", "artist:x"]), Command(args: ["ls", "--group", "albums"]),
            Command(args: ["ls", "--count"]), Command(args: ["stats"]), Command(args: ["failures"]),
            Command(args: ["scan", "--failures"]), Command(args: ["export"]), Command(args: ["root", "list"]),
            Command(args: ["root"]), Command(args: ["root", "exclude", music.path]),
            Command(args: ["root", "forget", music.path], locks: true),
            Command(args: ["root", "move", music.path, dir.path], locks: true),
            Command(args: ["root", "add", music.path], creates: true),
            Command(args: ["scan", "--no-wait"], locks: true),
            Command(args: ["scan", "--no-wait", "--quiet", music.path], creates: true, locks: true),
            Command(args: ["scan", "--dry-run"]),
            Command(args: ["playlist", "list"]), Command(args: ["playlist", "show", "P"]),
            Command(args: ["playlist", "add", "P", "flac"]), Command(args: ["playlist", "remove", "P", "1"]),
            Command(args: ["playlist", "rename", "P", "Q"]), Command(args: ["playlist", "delete", "P"]),
            Command(args: ["playlist", "export", "P"]),
            Command(args: ["playlist", "create", "N"], creates: true),
            Command(args: ["playlist", "smart", "S", "year:1999"], creates: true),
            Command(args: ["playlist", "import", dir.appendingPathComponent("in.m3u8").path], creates: true),
            Command(args: ["play", "--dry-run", "--sink", "null"]),
            Command(args: ["rate", "flac", "3"]), Command(args: ["set", "plays=0", "--all"]),
        ]
    }

    func run(_ command: Command, library: String, extra: [String] = []) throws -> CLI.Result {
        try CLI.run(command.args + extra + ["--library", library])
    }

    @Test func aMissingLibraryIsStatus3AndNothingIsCreated() throws {
        for command in commands where !command.creates {
            let parent = dir.appendingPathComponent("typo-\(UUID().uuidString)")
            let r = try run(command, library: parent.appendingPathComponent("lib.sqlite").path)
            #expect(r.status == 3, "\(command): \(r.status) \(r.stderr)")
            #expect(r.stderr.hasPrefix("mlib: no library at "), "\(command): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: parent.path), "\(command) created \(parent.path)")
        }
        // The commands that fill a library make one (in a folder that exists: mlib makes no folders for a
        // library named by --library, MistypedInputTests).
        for command in commands where command.creates {
            let folder = dir.appendingPathComponent("new-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("lib.sqlite").path
            let r = try run(command, library: path)
            #expect([0, 1].contains(r.status), "\(command): \(r.status) \(r.stderr)")
            #expect(FileManager.default.fileExists(atPath: path), "\(command)")
        }
    }

    @Test func aCorruptOrEmptyLibraryIsStatus3AndStaysAsItWas() throws {
        var garbage = [UInt8](repeating: 0, count: 8192)
        for i in garbage.indices { garbage[i] = UInt8(truncatingIfNeeded: i &* 2654435761 >> 7) }
        for (name, bytes) in [("corrupt.sqlite", garbage), ("empty.sqlite", [])] {
            let path = dir.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            for command in commands {
                let r = try run(command, library: path)
                #expect(r.status == 3, "\(name): \(command): \(r.status) \(r.stderr)")
                #expect(r.stderr.hasPrefix("mlib: "), "\(command): \(r.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes), "\(name) changed by \(command)")
            }
        }
    }

    /// Issue 24, case 8: another program's SQLite database (even one with an `items` table, or no table
    /// yet) is refused with 3 by every command, before anything is written to it: no switch to WAL, no
    /// `grdb_migrations`, no `-wal`/`-shm` left beside it.
    @Test func anotherProgramsDatabaseIsStatus3AndStaysAsItWas() throws {
        let schemas = ["other.db": "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes VALUES (1, 'x');",
                       "items.db": "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);",
                       "blank.db": "PRAGMA user_version = 7;"]
        for (name, sql) in schemas.sorted(by: { $0.key < $1.key }) {
            let path = dir.appendingPathComponent(name).path
            _ = try ChildProcess.run("/usr/bin/sqlite3", [path, sql])
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for command in commands {
                let r = try run(command, library: path)
                #expect(r.status == 3, "\(name): \(command): \(r.status) \(r.stderr)")
                #expect(r.stderr.contains("not an mlib library"), "\(name): \(command): \(r.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(name) changed by \(command)")
                for suffix in ["-wal", "-shm", "-journal"] {
                    #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(name)\(suffix) left by \(command)")
                }
            }
        }
    }

    /// Issue 24, case 9: a library with a damaged page (here the items table's root, which creating a
    /// playlist does not read) is not written to: the first write checks it (`quick_check`) and the command
    /// ends with 3 and "library damaged", saying what to do; the file stays as it was.
    @Test func aDamagedLibraryIsNotWrittenTo() throws {
        func sqlite(_ sql: String) throws -> String {
            try ChildProcess.run("/usr/bin/sqlite3", [library, sql]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let root = try #require(Int(try sqlite("SELECT rootpage FROM sqlite_master WHERE name = 'items'")))
        let pageSize = try #require(Int(try sqlite("PRAGMA page_size")))
        let file = try #require(FileHandle(forUpdatingAtPath: library))
        try file.seek(toOffset: UInt64((root - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xEE, count: 64))
        try file.close()
        #expect(try sqlite("PRAGMA quick_check") != "ok")
        let before = try Data(contentsOf: URL(fileURLWithPath: library))
        for args in [["playlist", "create", "New"], ["playlist", "smart", "S", "year:1999"], ["playlist", "delete", "P"]] {
            let r = try CLI.run(args + ["--library", library])
            #expect(r.status == 3, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("library damaged"), "\(args): \(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: library)) == before, "\(args) wrote to the damaged library")
        }
    }

    /// Issue 24, case 7: creating a library on a nearly full disk (a 1 MB tmpfs with 100–800 KB free)
    /// either makes a complete library or nothing: never a half-written file linked into place ("database
    /// disk image is malformed" forever after), never a temporary or its -wal/-shm left behind.
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func creatingALibraryOnANearlyFullDiskMakesAllOrNothing() throws {
        for free in [100, 300, 450, 550, 650, 800] {
            let disk = dir.appendingPathComponent("disk\(free)").path
            try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
            let mount = try ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1024k", "tmpfs", disk])
            try #require(mount.status == 0, "\(mount.stderr)")
            defer { _ = try? ChildProcess.run("/bin/umount", [disk]) }
            #expect(FileManager.default.createFile(atPath: disk + "/fill", contents: Data(count: (1024 - free) * 1024)))
            let lib = disk + "/lib.sqlite"
            let create = try CLI.run(["playlist", "create", "X", "--library", lib])
            let left = Set(try FileManager.default.contentsOfDirectory(atPath: disk)).subtracting(["fill", "lib.sqlite.lock"])
            if create.status == 0 {
                #expect(left == ["lib.sqlite"], "\(free) KB free: \(left)")
                let list = try CLI.run(["playlist", "list", "--library", lib])
                #expect(list.status == 0 && list.out.contains("X"), "\(free) KB free: \(list.status) \(list.stderr)")
            } else {
                #expect(create.status == 3, "\(free) KB free: \(create.status) \(create.stderr)")
                #expect(left.isEmpty, "\(free) KB free: left \(left); \(create.stderr)")
            }
        }
    }

    @Test func aUsageErrorIsStatus2WithOneMlibLine() throws {
        for command in commands {
            let r = try run(command, library: library, extra: ["--no-such-option"])
            #expect(r.status == 2, "\(command): \(r.status) \(r.stderr)")
            #expect(r.stderr.hasPrefix("mlib: Unknown option '--no-such-option'"), "\(command): \(r.stderr)")
        }
        let query = try CLI.run(["ls", "year >", "--library", library])
        #expect(query.status == 2 && query.stderr.hasPrefix("mlib: query error: "), "\(query.stderr)")
    }

    @Test func aHeldScanLockIsStatus3ForWhatTakesItAndNothingForReaders() throws {
        let fd = open(library + ".lock", O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0)
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        defer { close(fd) }
        for command in commands where command.locks {
            let r = try run(command, library: library)
            #expect(r.status == 3, "\(command): \(r.status) \(r.stderr)")
            #expect(r.stderr.hasPrefix("mlib: another scan is running"), "\(command): \(r.stderr)")
        }
        for args in [["ls"], ["stats"], ["export"], ["playlist", "list"], ["failures"]] {
            let r = try CLI.run(args + ["--library", library])
            #expect(r.status == 0, "\(args): \(r.status) \(r.stderr)")
        }
    }

    @Test func everyHelpStatesTheExitStatuses() throws {
        var all = [["--help"]]
        for command in commands { all.append(Array(command.args.prefix(command.args.first == "playlist" || command.args.first == "root" ? 2 : 1)) + ["--help"]) }
        all += [["info", "--help"], ["watch", "--help"], ["playlist", "--help"], ["fields", "--help"]]
        for args in all {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args)")
            #expect(r.out.contains("Exit status: 0 success"), "\(args) --help does not state the exit statuses")
        }
    }

    @Test func aLibraryFromANewerMlibIsRefused() throws {
        _ = try ChildProcess.run("/usr/bin/sqlite3", [library, "INSERT INTO grdb_migrations VALUES ('v99: from the future')"])
        let r = try CLI.run(["ls", "--library", library])
        #expect(r.status == 3)
        #expect(r.stderr.contains("newer version of mlib"), "\(r.stderr)")
        let scan = try CLI.run(["scan", "--library", library])
        #expect(scan.status == 3, "\(scan.stderr)")
    }

    @Test func twoCommandsCreatingOneLibraryTogetherBothSucceed() throws {
        for round in 0..<6 {
            let folder = dir.appendingPathComponent("race-\(round)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("lib.sqlite").path
            // All three started before any is waited for: they race to create the library.
            let processes = try (0..<3).map { i in
                try SpawnedProcess(CLI.binary.path, ["playlist", "create", "P\(i)", "--library", path])
            }
            for p in processes { p.waitUntilExit() }
            #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "round \(round): \(processes.map(\.terminationStatus))")
            let listed = try CLI.run(["playlist", "list", "--library", path])
            #expect(listed.out.split(separator: "\n").count == 3, "\(listed.out)")
        }
    }

    /// A query SQLite cannot run for its size is the query's fault (2), not the library's (3).
    @Test func aQueryTooLargeToRunIsAQueryError() throws {
        let query = (0..<3000).map { "year == \($0)" }.joined(separator: " OR ")
        let r = try CLI.run(["ls", query, "--library", library])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("mlib: query error: the query is too large"), "\(r.stderr)")
    }

    /// A database error during a scan (here: the library file is read-only) is 3, not 1 like a file that
    /// could not be read, so cron can tell them apart.
    @Test func aDatabaseErrorDuringAScanIsStatus3() throws {
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("opus.opus"), to: music.appendingPathComponent("new.opus"))
        for p in [dir.path, music.path] { chmod(p, 0o777) }
        chmod(library, 0o444)
        chmod(library + ".lock", 0o666)
        var args = [CLI.binary.path, "scan", "--quiet", "--library", library]
        if getuid() == 0 { args = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + args }
        let p = try ChildProcess.run(args[0], Array(args.dropFirst()))
        let problems = p.stderr
        #expect(p.status == 3, "\(problems)")
        #expect(problems.contains("readonly database"), "\(problems)")
    }

    @Test func aLibraryPathThatIsNotUTF8IsRefused() throws {
        // Through the shell: a Swift String argument cannot carry bytes that are not UTF-8.
        let badPath = dir.path + "/lib\\377.sqlite"
        let p = try ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" ls --library \"$(printf '\(badPath)')\" 2>/dev/null", CLI.binary.path])
        #expect(p.status == 2)
        // Issue 24, case 11: the same path in MLIB_LIBRARY was opened as "lib\u{FFFD}.sqlite" (created by
        // `scan DIR`); the refusal says why in full.
        let env = try ChildProcess.run("/bin/sh", ["-c", "MLIB_LIBRARY=\"$(printf '\(badPath)')\" exec \"$0\" scan --quiet \"$1\" 2>&1",
                                                   CLI.binary.path, music.path])
        let said = env.out
        #expect(env.status == 2, "\(said)")
        #expect(said.contains("MLIB_LIBRARY") && said.contains("valid UTF-8") && !said.contains("\u{FFFD}"), "\(said)")
        let created = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("lib") && $0 != "library.sqlite" && !$0.hasPrefix("library.sqlite") }
        #expect(created.isEmpty, "\(created)")
    }

    @Test func aLibraryInAReadOnlyDirectoryCanBeListed() throws {
        // A copy whose -wal/-shm are gone (a clean close), in a directory nobody may write to. Root writes
        // anywhere, so as root the reader runs as nobody.
        let shelf = dir.appendingPathComponent("shelf")
        try FileManager.default.createDirectory(at: shelf, withIntermediateDirectories: true)
        let copy = shelf.appendingPathComponent("lib.sqlite").path
        try FileManager.default.copyItem(atPath: library, toPath: copy)
        for p in [dir.path, shelf.path] { chmod(p, 0o755) }
        chmod(copy, 0o444)
        chmod(shelf.path, 0o555)
        defer { chmod(shelf.path, 0o755) }
        var args = [CLI.binary.path, "ls", "--library", copy]
        if getuid() == 0 { args = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + args }
        let p = try ChildProcess.run(args[0], Array(args.dropFirst()))
        let listed = p.out, problems = p.stderr
        #expect(p.status == 0, "\(problems)")
        #expect(listed.split(separator: "\n").count == 2, "\(listed)")
    }
}
