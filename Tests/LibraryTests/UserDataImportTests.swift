import Foundation
import Library
import MediaIndex
import MediaModel
import PostgresTestServer
import Testing
import TestSupport

/// Issue 40: `mlib import-userdata`. Each format's file is made by the real program where it runs here
/// (MPD's sticker database by Debian's mpd through `mpc sticker … set`, a beets library by beets from PyPI
/// through `beet modify`), else built from the format's documentation (iTunes, Navidrome's migrations,
/// ListenBrainz). Every value must land on the right item and user, unmatched tracks are listed, a
/// second import changes nothing, and a bad file writes nothing. Both stores.
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct UserDataImportTests {
    /// A library of three tagged MP3s made by ffmpeg (3, 4 and 5 s; "Song 1–3" by "Ärtist" on "Album",
    /// with recording ids) and two accounts: alice (the owner) and bob.
    struct Box {
        let folder: TemporaryLibrary
        let library: Library

        init(_ store: Store) async throws {
            folder = try TemporaryLibrary("import", copying: [])
            for n in 1...3 {
                let made = try ChildProcess.run("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=\(300 + 100 * n):duration=\(n + 2)",
                                                           "-metadata", "title=Song \(n)", "-metadata", "artist=Ärtist", "-metadata", "album=Album",
                                                           "-metadata", "MUSICBRAINZ_TRACKID=0000000\(n)-0000-0000-0000-000000000000",
                                                           folder.music.appendingPathComponent("t\(n).mp3").path])
                guard made.status == 0 else { throw TestFailure("ffmpeg: \(made.stderr)") }
            }
            library = try Library.open(LibraryLocator(try store.newLocator(sqlitePath: folder.library)), mode: .create)
            _ = try await library.scan([MediaPath(folder.music.path)])
            let users = try library.users(keyFile: folder.directory.appendingPathComponent("users-key").path, createKey: true)
            _ = try users.add(name: "alice", password: "a")
            _ = try users.add(name: "bob", password: "b")
        }

        var music: String { folder.music.path }
        func id(_ n: Int) throws -> Int64 { try #require(try library.store.item(path: MediaPath(music + "/t\(n).mp3"))).id }
        func owners(_ n: Int) throws -> UserItemValues { try #require(try library.userValues(of: nil, ids: [id(n)])[id(n)]) }
        func bobs(_ n: Int) throws -> UserItemValues { try #require(try library.userValues(of: "bob", ids: [id(n)])[id(n)]) }
        func write(_ name: String, _ text: String) throws -> String {
            let path = folder.directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    static func date(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

    // MARK: iTunes

    /// Apple's Library.xml: a plist whose "Tracks" dictionary holds one dictionary per track (the keys
    /// Music.app writes; Apple's plist DTD). t1 by its Location (a Mac path, decomposed Unicode, mapped
    /// with --map), t2 by tags with a computed rating (the album's: left out), t3 by tags with a duration
    /// 3 s off (no match), and one track that is not in the library.
    static func libraryXML(_ tracks: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>Major Version</key><integer>1</integer>
        \t<key>Application Version</key><string>1.4.5.7</string>
        \t<key>Music Folder</key><string>file:///Users/me/M%C3%BAsica/</string>
        \t<key>Tracks</key>
        \t<dict>
        \(tracks)
        \t</dict>
        \t<key>Playlists</key>
        \t<array><dict><key>Name</key><string>Library</string><key>Master</key><true/></dict></array>
        </dict>
        </plist>
        """
    }

    static let itunesTracks = """
        \t\t<key>101</key>
        \t\t<dict>
        \t\t\t<key>Track ID</key><integer>101</integer>
        \t\t\t<key>Name</key><string>Something else</string>
        \t\t\t<key>Artist</key><string>Whoever</string>
        \t\t\t<key>Total Time</key><integer>3000</integer>
        \t\t\t<key>Play Count</key><integer>7</integer>
        \t\t\t<key>Play Date UTC</key><date>2024-05-01T12:00:00Z</date>
        \t\t\t<key>Skip Count</key><integer>1</integer>
        \t\t\t<key>Rating</key><integer>80</integer>
        \t\t\t<key>Loved</key><true/>
        \t\t\t<key>Location</key><string>file:///Users/me/Mu%CC%81sica/t1.mp3</string>
        \t\t</dict>
        \t\t<key>102</key>
        \t\t<dict>
        \t\t\t<key>Name</key><string>song 2</string>
        \t\t\t<key>Artist</key><string>ARTIST</string>
        \t\t\t<key>Album</key><string>Album</string>
        \t\t\t<key>Total Time</key><integer>4400</integer>
        \t\t\t<key>Play Count</key><integer>2</integer>
        \t\t\t<key>Rating</key><integer>60</integer>
        \t\t\t<key>Rating Computed</key><true/>
        \t\t</dict>
        \t\t<key>103</key>
        \t\t<dict>
        \t\t\t<key>Name</key><string>Song 3</string>
        \t\t\t<key>Artist</key><string>Ärtist</string>
        \t\t\t<key>Total Time</key><integer>8000</integer>
        \t\t\t<key>Play Count</key><integer>4</integer>
        \t\t</dict>
        \t\t<key>104</key>
        \t\t<dict>
        \t\t\t<key>Name</key><string>Gone</string>
        \t\t\t<key>Play Count</key><integer>1</integer>
        \t\t\t<key>Location</key><string>file:///Users/me/Mu%CC%81sica/gone.mp3</string>
        \t\t</dict>
        """

    @Test(arguments: Store.available) func iTunesLibraryXML(_ store: Store) async throws {
        let box = try await Box(store)
        defer { box.folder.remove() }
        let file = try box.write("Library.xml", Self.libraryXML(Self.itunesTracks))
        // t2 by tags: "ARTIST" and "Ärtist" fold alike (case and diacritics, as the query language), 4.4 s is within 2 s of 4 s.
        try box.library.setRating(id: box.id(2), 1)   // the owner's own rating: kept
        let options = UserDataImportOptions(maps: [.init(from: "/Users/me/Música", to: box.music)], dryRun: true)
        let dry = try box.library.importUserData(.itunes, file: file, options: options)
        #expect(dry.records == 4 && dry.matched == 2 && dry.matchedBy == ["path": 1, "tags": 1], "\(dry)")
        #expect(dry.unmatched.map(\.track).sorted() == ["/Users/me/Música/gone.mp3", "Ärtist – Song 3"], "\(dry.unmatched)")
        #expect(try box.owners(1) == UserItemValues(), "a dry run writes nothing")

        var real = options
        real.dryRun = false
        let report = try box.library.importUserData(.itunes, file: file, options: real)
        #expect(report.itemsChanged == 2 && report.starsAdded == 1, "\(report)")
        let first = UserItemValues(rating: 4, playCount: 7, skipCount: 1, lastPlayed: Self.date("2024-05-01T12:00:00Z"))
        #expect(try box.owners(1) == first)
        #expect(try box.owners(2) == UserItemValues(rating: 1, playCount: 2), "a computed rating is the album's: left out; the owner's kept")
        #expect(try box.owners(3) == UserItemValues(), "8 s is not within 2 s of 5 s")
        #expect(try box.library.store.stars(of: "alice").map(\.key) == [String(try box.id(1))], "Loved is a star of the owner's account")

        let again = try box.library.importUserData(.itunes, file: file, options: real)
        #expect(again.itemsChanged == 0 && again.starsAdded == 0, "a second import changes nothing: \(again)")
        #expect(try box.owners(1) == first)
        #expect(try box.library.history(HistoryQuery()).isEmpty, "counters are not listens")

        // Truncated after the first track: nothing of it is written (bob has no values before or after).
        let cut = Self.libraryXML(Self.itunesTracks)
        let broken = try box.write("broken.xml", String(cut.prefix(upTo: cut.range(of: "<key>102</key>")!.lowerBound)))
        var bob = real
        bob.user = "bob"
        #expect(throws: UserDataImportError.self) { try box.library.importUserData(.itunes, file: broken, options: bob) }
        #expect(try box.bobs(1) == UserItemValues(), "a bad file writes nothing")
        #expect(throws: UsersError.self) {
            try box.library.importUserData(.itunes, file: file, options: UserDataImportOptions(user: "nobody"))
        }
    }

    // MARK: MPD

    @Test(.enabled(if: ChildProcess.exists("mpd") && ChildProcess.exists("mpc"), "mpd or mpc missing"), arguments: Store.available)
    func mpdStickersWrittenByMPD(_ store: Store) async throws {
        let box = try await Box(store)
        defer { box.folder.remove() }
        let file = box.folder.directory.appendingPathComponent("sticker.sql").path
        let mpd = try StickerMPD(directory: box.folder.directory.path, music: box.music, stickers: file)
        defer { mpd.stop() }
        try mpd.mpc(["update", "--wait"])
        try mpd.mpc(["sticker", "t1.mp3", "set", "rating", "7"])
        try mpd.mpc(["sticker", "t1.mp3", "set", "playCount", "12"])
        try mpd.mpc(["sticker", "t1.mp3", "set", "lastPlayed", "1700000000"])
        try mpd.mpc(["sticker", "t2.mp3", "set", "skipCount", "3"])
        try mpd.mpc(["sticker", "t2.mp3", "set", "like", "2"])
        try mpd.mpc(["sticker", "t3.mp3", "set", "rating", "0"])
        mpd.stop()

        let report = try box.library.importUserData(.mpd, file: file, options: UserDataImportOptions(user: "bob"))
        #expect(report.records == 2 && report.matched == 2 && report.matchedBy == ["path": 2] && report.unmatched.isEmpty,
                "relative URIs under the library's root; t3's rating 0 is no value: \(report)")
        #expect(try box.bobs(1) == UserItemValues(rating: 4, playCount: 12, lastPlayed: Date(timeIntervalSince1970: 1_700_000_000)),
                "rating 7 of 10 is 3.5 stars, rounded up")
        #expect(try box.bobs(2) == UserItemValues(skipCount: 3))
        #expect(try box.library.store.stars(of: "bob").map(\.key) == [String(try box.id(2))], "like 2 is loved")
        #expect(try box.owners(1) == UserItemValues(), "bob's, not the owner's")
        #expect(try box.library.importUserData(.mpd, file: file, options: UserDataImportOptions(user: "bob")).itemsChanged == 0)
    }

    // MARK: beets

    @Test(.enabled(if: ChildProcess.exists("beet"), "beets missing (pip install beets)"), arguments: Store.available)
    func beetsLibraryWrittenByBeets(_ store: Store) async throws {
        let box = try await Box(store)
        defer { box.folder.remove() }
        // BEETSDIR (and HOME) in the test's directory: beets never sees the runner's own configuration.
        let beets = box.folder.directory.appendingPathComponent("beets")
        try FileManager.default.createDirectory(at: beets, withIntermediateDirectories: true)
        try "directory: \(box.music)\nlibrary: \(beets.path)/library.db\nimport:\n  copy: no\n  write: no\n"
            .write(toFile: beets.path + "/config.yaml", atomically: true, encoding: .utf8)
        let environment = ["BEETSDIR": beets.path, "HOME": beets.path, "XDG_CONFIG_HOME": beets.path]
        func beet(_ arguments: [String]) throws {
            let result = try ChildProcess.run("beet", arguments, environment: environment)
            guard result.status == 0 else { throw TestFailure("beet \(arguments): \(result.stderr)") }
        }
        try beet(["import", "-A", "-q", box.music])
        try beet(["modify", "-y", "-W", "title:Song 1", "rating=0.8", "play_count=5", "last_played=1700000000"])
        try beet(["modify", "-y", "-W", "title:Song 3", "skip_count=2", "rating=0.5"])
        // A file beets knows that the library does not: its values are listed as unmatched.
        try beet(["modify", "-y", "-W", "title:Song 2", "play_count=1"])
        try FileManager.default.removeItem(atPath: box.music + "/t2.mp3")
        _ = try await box.library.scan([MediaPath(box.music)])

        let file = beets.path + "/library.db"
        let report = try box.library.importUserData(.beets, file: file)
        #expect(report.records == 3 && report.matched == 2 && report.unmatched.map(\.track) == ["t2.mp3"], "\(report)")
        #expect(try box.owners(1) == UserItemValues(rating: 4, playCount: 5, lastPlayed: Date(timeIntervalSince1970: 1_700_000_000)))
        #expect(try box.owners(3) == UserItemValues(rating: 3, skipCount: 2), "0.5 is 2.5 stars, rounded up")
        #expect(try box.library.importUserData(.beets, file: file).itemsChanged == 0)
        // Not a beets library: a clear error.
        #expect(throws: UserDataImportError.self) { try box.library.importUserData(.beets, file: box.folder.library) }
    }

    // MARK: Navidrome

    /// The tables of Navidrome's schema that hold the values, as its migrations leave them (db/migrations
    /// of github.com/navidrome/navidrome: user, library, media_file with library_id and mbz_recording_id,
    /// annotation as 20250701010102_add_annotation_user_foreign_key.sql makes it), with only the columns
    /// the reader needs of the wide ones.
    static let navidromeSchema = """
        CREATE TABLE user (id varchar(255) not null primary key, user_name varchar(255) default '' not null unique,
            name varchar(255) default '' not null, email varchar(255) default '' not null, password varchar(255) default '' not null,
            is_admin bool default FALSE not null);
        CREATE TABLE library (id integer primary key autoincrement, name text not null unique, path text not null unique);
        CREATE TABLE media_file (id varchar(255) not null primary key, path varchar(255) default '' not null,
            title varchar(255) default '' not null, album varchar(255) default '' not null, artist varchar(255) default '' not null,
            duration real default 0 not null, mbz_recording_id varchar(255) default '' not null, library_id integer not null default 1);
        CREATE TABLE annotation (user_id varchar(255) not null REFERENCES user(id) ON DELETE CASCADE ON UPDATE CASCADE,
            item_id varchar(255) default '' not null, item_type varchar(255) default '' not null, play_count integer default 0,
            play_date datetime, rating integer default 0, starred bool default FALSE not null, starred_at datetime,
            unique (user_id, item_id, item_type));
        """

    @Test(.enabled(if: ChildProcess.exists("sqlite3"), "sqlite3 missing"), arguments: Store.available)
    func navidromeAnnotations(_ store: Store) async throws {
        let box = try await Box(store)
        defer { box.folder.remove() }
        let file = box.folder.directory.appendingPathComponent("navidrome.db").path
        let music = box.music
        let sql = Self.navidromeSchema + """
            INSERT INTO user VALUES ('u1', 'admin', '', '', '', 1), ('u2', 'bob', '', '', '', 0), ('u3', 'guest', '', '', '', 0);
            INSERT INTO library VALUES (1, 'Music Library', '\(music)/');
            INSERT INTO media_file VALUES ('m1', 't1.mp3', 'Song 1', 'Album', 'Ärtist', 3.0, '', 1),
                ('m2', 'elsewhere/t2.mp3', 'Song 2', 'Album', 'Ärtist', 4.0, '00000002-0000-0000-0000-000000000000', 1),
                ('m9', 'gone.mp3', 'Gone', '', '', 1.0, '', 1);
            INSERT INTO annotation VALUES ('u1', 'm1', 'media_file', 9, '2026-03-16 12:00:00+00:00', 5, 1, '2026-03-16 12:00:00+00:00'),
                ('u2', 'm1', 'media_file', 2, '2025-01-02T03:04:05.123456789Z', 0, 0, NULL),
                ('u2', 'm2', 'media_file', 1, NULL, 3, 1, NULL),
                ('u2', 'm9', 'media_file', 1, NULL, 0, 0, NULL),
                ('u3', 'm1', 'media_file', 4, NULL, 1, 0, NULL),
                ('u1', 'al1', 'album', 3, NULL, 4, 1, NULL);
            """
        let made = try ChildProcess.run("sqlite3", [file, sql])
        #expect(made.status == 0, "\(made.stderr)")

        // admin is no account here, nor is guest: named, and nothing written.
        let refused = try box.library.importUserData(.navidrome, file: file, options: UserDataImportOptions(dryRun: true))
        #expect(refused.unknownUsers == ["admin", "guest"], "\(refused)")
        #expect(throws: UserDataImportError.unknownUsers(["admin", "guest"])) {
            try box.library.importUserData(.navidrome, file: file)
        }
        #expect(try box.bobs(1) == UserItemValues(), "nothing of the file was written")

        let options = UserDataImportOptions(userMap: ["admin": "alice", "guest": ""])
        let report = try box.library.importUserData(.navidrome, file: file, options: options)
        #expect(report.users == ["alice", "bob"] && report.usersLeftOut == ["guest"], "\(report)")
        #expect(report.matched == 3 && report.matchedBy == ["path": 2, "recordingID": 1] && report.unmatched.map(\.track) == ["\(music)/gone.mp3"],
                "\(report)")
        #expect(try box.owners(1) == UserItemValues(rating: 5, playCount: 9, lastPlayed: Self.date("2026-03-16T12:00:00Z")), "alice is the owner")
        #expect(try box.bobs(1) == UserItemValues(playCount: 2, lastPlayed: Date(timeIntervalSince1970: 1_735_787_045.123456789)), "the fraction kept")
        #expect(try box.bobs(2) == UserItemValues(rating: 3, playCount: 1))
        #expect(try box.library.store.stars(of: "alice").map(\.key) == [String(try box.id(1))], "albums' annotations are not songs'")
        #expect(try box.library.store.stars(of: "bob").map(\.key) == [String(try box.id(2))])
        let again = try box.library.importUserData(.navidrome, file: file, options: options)
        #expect(again.itemsChanged == 0 && again.starsAdded == 0, "\(again)")
    }

    // MARK: ListenBrainz

    @Test(arguments: Store.available) func listenBrainzListensBecomeHistory(_ store: Store) async throws {
        let box = try await Box(store)
        defer { box.folder.remove() }
        // Listens as ListenBrainz's JSON documentation describes them, one per line.
        let file = try box.write("listens.jsonl", """
            {"listened_at": 1700000000, "track_metadata": {"artist_name": "Ärtist", "track_name": "Song 1", "release_name": "Album", "additional_info": {"duration_ms": 3000}}}
            {"listened_at": 1700000300, "track_metadata": {"artist_name": "Someone", "track_name": "Other", "additional_info": {"recording_mbid": "00000003-0000-0000-0000-000000000000"}}}
            {"listened_at": 1700000600, "track_metadata": {"artist_name": "Ärtist", "track_name": "Song 1"}}

            {"listened_at": 1700000900, "track_metadata": {"artist_name": "Nobody", "track_name": "Nothing"}}
            """)
        let report = try box.library.importUserData(.listenbrainz, file: file, options: UserDataImportOptions(user: "bob"))
        #expect(report.records == 4 && report.matched == 3 && report.listensAdded == 3 && report.unmatched.map(\.track) == ["Nobody – Nothing"],
                "\(report)")
        let history = try box.library.history(HistoryQuery(user: .named("bob")))
        #expect(history.map(\.listen.itemID) == [try box.id(1), try box.id(3), try box.id(1)])
        #expect(history.allSatisfy { $0.listen.front == .import && $0.listen.kind == .play })
        #expect(try box.bobs(1) == UserItemValues(playCount: 2, lastPlayed: Date(timeIntervalSince1970: 1_700_000_600)))
        let again = try box.library.importUserData(.listenbrainz, file: file, options: UserDataImportOptions(user: "bob"))
        #expect(again.listensAdded == 0 && again.listensAlreadyThere == 3, "\(again)")
        #expect(try box.bobs(1).playCount == 2)

        // mlib's own export (`mlib history --export`) imports into another library: the round trip.
        try box.library.recordPlay(id: box.id(2), at: Date(timeIntervalSince1970: 1_700_001_000.6), user: "alice")
        let exported = try box.write("export.jsonl", box.library.history(HistoryQuery(user: .everyone)).compactMap(ListenBrainzExport.line).joined(separator: "\n"))
        let other = try await Box(store)
        defer { other.folder.remove() }
        let trip = try other.library.importUserData(.listenbrainz, file: exported)
        #expect(trip.listensAdded == 4 && trip.unmatched.isEmpty, "\(trip)")
        #expect(try other.owners(2) == UserItemValues(playCount: 1, lastPlayed: Date(timeIntervalSince1970: 1_700_001_000)))
        #expect(try box.library.importUserData(.listenbrainz, file: exported, options: UserDataImportOptions(user: "alice")).listensAlreadyThere >= 1,
                "its own export, rounded down to the second, is already there")

        // A line that is not JSON: nothing of the file is written.
        let bad = try box.write("bad.jsonl", """
            {"listened_at": 1800000000, "track_metadata": {"artist_name": "Ärtist", "track_name": "Song 2"}}
            {"listened_at":
            """)
        #expect(throws: UserDataImportError.malformed(file: bad, reason: "line 2 is not JSON")) {
            try box.library.importUserData(.listenbrainz, file: bad, options: UserDataImportOptions(user: "bob"))
        }
        #expect(try box.bobs(2) == UserItemValues())
    }

    // MARK: the CLI

    @Test func theCommandDryRunsReportsAndMaps() async throws {
        let box = try await Box(.sqlite)
        defer { box.folder.remove() }
        let file = try box.write("Library.xml", Self.libraryXML(Self.itunesTracks))
        let dry = try box.folder.mlib(["import-userdata", "itunes", file, "--dry-run", "--map", "/Users/me/Música=\(box.music)"])
        #expect(dry.out.contains("4 tracks with values in \(file); 2 matched (1 by path, 1 by tags), 2 unmatched"), "\(dry.out)")
        #expect(dry.out.contains("dry run: nothing written") && dry.out.contains("unmatched: /Users/me/Música/gone.mp3 (no item)"))
        let json = try box.folder.mlib(["import-userdata", "itunes", file, "--json", "--user", "bob", "--map", "/Users/me/Música=\(box.music)"])
        let report = try JSONDecoder().decode(UserDataImportReport.self, from: json.stdout)
        #expect(report.itemsChanged == 2 && report.users == ["bob"])
        #expect(try box.bobs(1).playCount == 7)
        let wrong = try ChildProcess.run(ChildProcess.mlib.path, ["import-userdata", "winamp", file, "--library", box.folder.library])
        #expect(wrong.status == 2 && wrong.stderr.contains("none of itunes, mpd, beets, navidrome, listenbrainz"), "\(wrong.stderr)")
        let navidrome = try ChildProcess.run(ChildProcess.mlib.path, ["import-userdata", "navidrome", file, "--user", "bob", "--library", box.folder.library])
        #expect(navidrome.status == 2 && navidrome.stderr.contains("--user-map"), "a Navidrome database names its users: \(navidrome.stderr)")
        let nothing = try ChildProcess.run(ChildProcess.mlib.path, ["import-userdata", "itunes", file, "--library", box.folder.library, "--dry-run"])
        #expect(nothing.status == 0, "t2 and gone are matched or listed even without --map: \(nothing.out)")
    }
}

extension UserDataImportTests {
    /// A missing file is one line, the same for every format ("cannot read"), status 1, nothing written. The
    /// iTunes reader said "not a valid import file: line 0: The operation could not be completed…" after three
    /// lines of CoreFoundation's stream warnings.
    @Test func aMissingFileIsOneLineInEveryFormat() async throws {
        let box = try await Box(.sqlite)
        defer { box.folder.remove() }
        let missing = box.folder.directory.appendingPathComponent("nope").path
        for format in ["itunes", "mpd", "beets", "navidrome", "listenbrainz"] {
            let run = try ChildProcess.run(ChildProcess.mlib.path, ["import-userdata", format, missing, "--library", box.folder.library])
            let lines = run.stderr.split(separator: "\n")
            #expect(run.status == 1 && lines.count == 1 && lines.first?.hasPrefix("mlib: \(missing): cannot read: ") == true,
                    "\(format): \(run.status) \(run.stderr)")
        }
    }
}

/// An MPD of the test's own with a sticker database: loopback, a free port, null output.
struct StickerMPD {
    let port: Int
    let process: SpawnedProcess

    init(directory: String, music: String, stickers: String) throws {
        let socket = try ChildProcess.run("python3", ["-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
        port = Int(socket.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        try """
            music_directory "\(music)"
            db_file "\(directory)/mpd.db"
            log_file "\(directory)/mpd.log"
            sticker_file "\(stickers)"
            bind_to_address "127.0.0.1"
            port "\(port)"
            auto_update "no"
            zeroconf_enabled "no"
            audio_output {
                type "null"
                name "null"
            }
            """.write(toFile: directory + "/mpd.conf", atomically: true, encoding: .utf8)
        process = try SpawnedProcess("mpd", ["--no-daemon", directory + "/mpd.conf"])
        for _ in 0..<100 {
            if (try? mpc(["status"])) != nil { return }
            guard process.isRunning else { break }
            usleep(100_000)
        }
        stop()
        throw TestFailure("mpd did not start: \(((try? String(contentsOfFile: directory + "/mpd.log", encoding: .utf8)) ?? "").suffix(300))")
    }

    @discardableResult
    func mpc(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.run("mpc", ["-h", "127.0.0.1", "-p", String(port)] + arguments)
        guard result.status == 0 else { throw TestFailure("mpc \(arguments): \(result.stderr)") }
        return result.out
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
