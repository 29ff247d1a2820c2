import Foundation
import Testing

/// Answers that differed from Debian's mpd 0.23 in ways clients see (issue 26, 5 and 11), each as mpd
/// gives it on the same folder.
@Suite(.serialized, .enabled(if: toolExists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct MPDAnswerTests {
    static func state(_ client: RawClient) throws -> String? {
        try client.command("status").first { $0.hasPrefix("state: ") }.map { String($0.dropFirst(7)) }
    }

    /// mpd's `next` and `previous` while paused start playing the other song.
    @Test func nextAndPreviousWhilePausedPlay() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(try client.command("add Long").last == "OK")
        #expect(try client.command("play 0").last == "OK")
        #expect(try client.command("pause 1").last == "OK")
        #expect(try Self.state(client) == "pause")
        #expect(try client.command("next").last == "OK")
        #expect(try Self.state(client) == "play")
        #expect(try client.command("pause 1").last == "OK")
        #expect(try client.command("previous").last == "OK")
        #expect(try Self.state(client) == "play")
        #expect(try client.command("currentsong").contains("Pos: 0"))
    }

    /// In random mode a song given a priority before `play N` plays next, in every trial, and its priority
    /// is gone once it has played (issue 26, 6: mlib played it next in 0 of 5 trials, mpd in 5 of 5: `play N`
    /// swapped the chosen song into the prioritised one's place in the order).
    @Test func aPrioritySetBeforePlayInRandomModePlaysNext() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for trial in 0..<5 {
            #expect(try client.command("stop").last == "OK")
            #expect(try client.command("clear").last == "OK")
            #expect(try client.command("add /").last == "OK")
            #expect(try client.command("random 1").last == "OK")
            let target = 6 - trial % 3
            #expect(try client.command("prio 255 \(target)").last == "OK")
            #expect(try client.command("play \(trial % 3)").last == "OK")
            #expect(try client.command("next").last == "OK")
            #expect(try client.command("currentsong").contains("Pos: \(target)"), "trial \(trial)")
            #expect(try !client.command("playlistinfo \(target)").contains { $0.hasPrefix("Prio: ") }, "trial \(trial)")
        }
    }

    /// `commands` does not list `noidle` (mpd answers it only inside idle); `tagtypes` needs no password.
    @Test func commandsAndTagtypesBeforeThePassword() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library, extra: ["--password", "secret"])
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(try client.command("tagtypes").contains("tagtype: Artist"))
        #expect(try client.command("password secret") == ["OK"])
        let commands = try client.command("commands")
        #expect(commands.contains("command: idle") && !commands.contains("command: noidle"))
    }

    /// A tab inside a tag is a space in the answer, as mpd writes it.
    @Test func tabsInTagsAreSpaces() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let file = library.music.appendingPathComponent("tab.flac")
        let made = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-metadata", "title=A\tB", file.path])
        #expect(made.status == 0)
        #expect(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q", library.music.path]).status == 0)
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(try client.command("lsinfo tab.flac").contains("Title: A B"))
    }

    /// An empty value finds the songs without the tag (issue 26, 4: `find artist ""` gave 0 where mpd
    /// gives the songs with no artist), and a number is matched as mpd matches the tag's text: `find
    /// track 01` finds nothing when the tag is 1 (issue 26, 11).
    @Test func emptyValuesAndNumbersMatchAsMPD() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let bare = library.music.appendingPathComponent("bare.flac")
        let made = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-metadata", "title=Bare", "-metadata", "track=3", bare.path])
        #expect(made.status == 0)
        #expect(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q", library.music.path]).status == 0)
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(try client.command("find artist \"\"").filter { $0.hasPrefix("file: ") } == ["file: bare.flac"])
        #expect(try client.command("count artist \"\"").contains("songs: 1"))
        #expect(try client.command("find \"(artist == '')\"").filter { $0.hasPrefix("file: ") } == ["file: bare.flac"])
        #expect(try client.command("find \"(artist != '')\"").filter { $0.hasPrefix("file: ") }.count > 1)
        #expect(try client.command("find track 03") == ["OK"])
        #expect(try client.command("find track 3").contains("file: bare.flac"))
    }

    /// An update that changed nothing wakes `idle database` no one (every client reloaded its whole
    /// library after each one); `update` is still announced, and an update that adds a song wakes both.
    @Test func idleDatabaseOnlyWhenTheUpdateChangedSomething() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let watcher = try RawClient(port: server.port)
        let client = try RawClient(port: server.port)
        // Waits until the update is over.
        func settle() throws {
            for _ in 0..<100 where try client.command("status").contains(where: { $0.hasPrefix("updating_db") }) {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        try watcher.send(Array("idle database\n".utf8))
        #expect(try client.command("update").last == "OK")
        try settle()
        Thread.sleep(forTimeInterval: 0.7)   // longer than the view's check interval (0.5 s)
        try watcher.send(Array("noidle\n".utf8))
        let unchanged = try watcher.answer()
        #expect(unchanged == ["OK"], "an update that changed nothing woke idle database: \(unchanged)")

        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("opus.opus"),
                                         to: library.music.appendingPathComponent("Other/copy.opus"))
        try watcher.send(Array("idle database\n".utf8))
        #expect(try client.command("update").last == "OK")
        #expect(try watcher.answer() == ["changed: database", "OK"])
    }

    /// Enabling or disabling an output wakes `idle mixer` too, as mpd's (its volume comes and goes).
    @Test func outputsWakeTheMixer() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let watcher = try RawClient(port: server.port)
        let client = try RawClient(port: server.port)
        try watcher.send(Array("idle mixer\n".utf8))
        #expect(try client.command("disableoutput 0") == ["OK"])
        #expect(try watcher.answer() == ["changed: mixer", "OK"])
        try watcher.send(Array("idle mixer\n".utf8))
        #expect(try client.command("enableoutput 0") == ["OK"])
        #expect(try watcher.answer() == ["changed: mixer", "OK"])
    }

    /// Several `group`s nest as mpd nests them: the last one outermost (mpd reads them from the end), so
    /// `list title group album group artist` lists artists, each one's albums, their titles (mlib nested
    /// them in reverse: albums outermost); grouping a tag twice is refused as mpd refuses it.
    @Test func severalGroupsNestAsMPD() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let answer = try client.command("list title group album group artist")
        #expect(answer.first?.hasPrefix("Artist:") == true, "\(answer.prefix(3))")
        let sine = try #require(answer.firstIndex(of: "Artist: Sine Wave"))
        #expect(Array(answer[sine...].prefix(4)) == ["Artist: Sine Wave", "Album: Long Tones", "Title: Tone 1", "Title: Tone 2"])
        #expect(try client.command("list album group album") == ["ACK [2@0] {list} Conflicting group"])
        #expect(try client.command("list album group artist group artist") == ["ACK [2@0] {list} Conflicting group"])
    }

    /// `search any` looks at dates and numbers too, and a number's text is searched as mpd searches the
    /// tag's (issue 26, 8: `search any 1996` and `search track 1` found nothing); `AudioFormat` and
    /// `file =~` filters are accepted (issue 26, 9: refused).
    @Test func searchesOverDatesNumbersFormatsAndFileRegexes() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let dated = library.music.appendingPathComponent("Other/dated.flac")
        let made = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1:sample_rate=48000", "-ac", "1",
                                      "-sample_fmt", "s16", "-metadata", "title=Dated", "-metadata", "date=1996",
                                      "-metadata", "track=12", dated.path])
        #expect(made.status == 0)
        #expect(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q", library.music.path]).status == 0)
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        func files(_ command: String) throws -> [String] {
            try client.command(command).filter { $0.hasPrefix("file: ") }.map { String($0.dropFirst(6)) }
        }
        #expect(try files("search any 1996") == ["Other/dated.flac"])
        #expect(try files("search any 99") == ["Other/dated.flac"])
        #expect(try files("search track 2").contains("Other/dated.flac"))   // 12 contains 2, as mpd's text does
        #expect(try files("search track 2").contains("Long/tone2.flac"))
        #expect(try !files("search track 2").contains("Long/tone1.flac"))
        #expect(try files("search \"(track starts_with '1')\"").contains("Other/dated.flac"))
        #expect(try files("find \"(AudioFormat == '48000:16:1')\"") == ["Other/dated.flac"])
        #expect(try files("find \"(AudioFormat =~ '48000:16:*')\"") == ["Other/dated.flac"])
        #expect(try files("find \"(file =~ 'dated')\"") == ["Other/dated.flac"])
        #expect(try files("find \"(file =~ '^Long/')\"") == ["Long/tone1.flac", "Long/tone2.flac"])
        #expect(try files("find \"(file !~ '[a-z]')\"") == [])
        #expect(try client.command("find \"(file =~ '(')\"").last?.hasPrefix("ACK [2@0]") == true)
    }

    /// Commands mpd 0.23 has that mlib answered "unknown command" (issue 26, 11): `getvol`, `searchaddpl`,
    /// `listfiles`, and `addtagid`/`cleartagid` with mpd's refusal for a local file.
    @Test func getvolSearchaddplListfilesAndTagEdits() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        try Data("not music".utf8).write(to: library.music.appendingPathComponent("Other/notes.txt"))
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(try client.command("setvol 42") == ["OK"])
        #expect(try client.command("getvol") == ["volume: 42", "OK"])
        #expect(try client.command("searchaddpl tones title tone") == ["OK"])
        #expect(try client.command("listplaylist tones") == ["file: Long/tone1.flac", "file: Long/tone2.flac", "OK"])
        #expect(try client.command("searchaddpl tones title nothing-like-this") == ["OK"])
        #expect(try client.command("listplaylists").contains("playlist: tones"))
        let other = try client.command("listfiles Other")
        #expect(other.contains("file: notes.txt") && other.contains("size: 9") && other.contains("file: ogg-vorbis.ogg"))
        #expect(other.filter { $0.hasPrefix("Last-Modified: ") }.count == 3)
        let top = try client.command("listfiles")
        #expect(top.contains("directory: Long") && top.contains("file: opus.opus"))
        #expect(try client.command("listfiles ..").last?.hasPrefix("ACK") == true)
        let added = try client.command("addid opus.opus")
        let id = try #require(added.first?.split(separator: " ").last.map(String.init))
        #expect(try client.command("addtagid \(id) artist X") == ["ACK [4@0] {addtagid} Cannot edit tags of local file"])
        #expect(try client.command("cleartagid \(id)") == ["ACK [4@0] {cleartagid} Cannot edit tags of local file"])
        #expect(try client.command("addtagid 999 artist X") == ["ACK [50@0] {addtagid} No such song"])
        #expect(try client.command("addtagid \(id) nosuchtag X") == ["ACK [2@0] {addtagid} Unknown tag type: nosuchtag"])
    }

    /// `readcomments` answers the file's raw tags, one line per value (issue 26, 11: unknown command).
    @Test func readcommentsAnswersTheRawTags() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let answer = try client.command("readcomments Album1/flac-vorbis-cover.flac")
        #expect(answer.last == "OK")
        for line in ["TITLE: Fixture Song", "ARTIST: The Fixtures", "TRACKTOTAL: 12", "REPLAYGAIN_TRACK_GAIN: -6.50 dB",
                     "MUSICBRAINZ_RELEASEGROUPID: 1f6e5d4c-3b2a-4190-8e7d-6c5b4a392817"] {
            #expect(answer.contains(line), "\(line)")
        }
        #expect(try client.command("readcomments nope.flac") == ["ACK [50@0] {readcomments} No such song"])
        #expect(try client.command("readcomments") == ["ACK [2@0] {readcomments} wrong number of arguments for \"readcomments\""])
    }

    /// The deprecated `playlist` prints `POS:file: URI`, as mpd 0.23 (mlib printed `POS:URI`; found by the
    /// conformance run's `order` sequence).
    @Test func playlistPrintsFileFields() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(try client.command("add Long") == ["OK"])
        #expect(try client.command("playlist") == ["0:file: Long/tone1.flac", "1:file: Long/tone2.flac", "OK"])
    }
}
