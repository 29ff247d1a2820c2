import Foundation
import PostgresTestServer
import Testing

/// Filters on the tags mlib keeps only as raw tags (Performer, Conductor, Work, Label, the sort tags…)
/// work as mpd 0.23's: `find` exact, `search` case-insensitive contains, every expression operator, a
/// missing tag compared as the empty string, a sort tag falling back to its plain one (issue 26, 9:
/// mlib answered "mlib does not index the tag Performer for filtering").
@Suite(.serialized, .enabled(if: toolExists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct RawTagFilterTests {
    @Test(arguments: Store.available) func rawTagsFilterAsMPD(_ store: Store) throws {
        let library = try TestLibrary(library: store == .postgres ? try #require(PostgresTestServer.shared).makeDatabase("rawtags") : nil)
        defer { library.remove() }
        let file = library.music.appendingPathComponent("Other/classic.flac")
        let made = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-metadata", "title=Symphony",
                                      "-metadata", "performer=Jane Doe", "-metadata", "conductor=Herbert Karajan",
                                      "-metadata", "work=Symphony No. 5", "-metadata", "label=Deutsche Grammophon", file.path])
        #expect(made.status == 0)
        #expect(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q", library.music.path]).status == 0)
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        func files(_ command: String) throws -> [String] {
            let answer = try client.command(command)
            #expect(answer.last == "OK", "\(command): \(answer.suffix(1))")
            return answer.filter { $0.hasPrefix("file: ") }.map { String($0.dropFirst(6)) }
        }
        let all = try files("listall").sorted()
        let others = all.filter { $0 != "Other/classic.flac" }
        #expect(all.count == 8)

        #expect(try files("find performer \"Jane Doe\"") == ["Other/classic.flac"])
        #expect(try files("find performer \"jane doe\"") == [])
        #expect(try files("search performer \"JANE\"") == ["Other/classic.flac"])
        #expect(try files("find conductor \"Herbert Karajan\" label \"Deutsche Grammophon\"") == ["Other/classic.flac"])
        #expect(try files("find \"(work contains 'No. 5')\"") == ["Other/classic.flac"])
        #expect(try files("find \"(label starts_with 'Deutsche')\"") == ["Other/classic.flac"])
        #expect(try files("find \"(performer =~ 'D.e$')\"") == ["Other/classic.flac"])
        #expect(try files("find \"(performer !~ 'D.e$')\"").sorted() == others)
        #expect(try files("find \"(performer != 'Jane Doe')\"").sorted() == others)
        #expect(try files("find \"(!(conductor == 'Herbert Karajan'))\"").sorted() == others)
        // A missing tag is the empty string.
        #expect(try files("find performer \"\"").sorted() == others)
        #expect(try files("find \"((performer == 'Jane Doe') AND (title == 'Symphony'))\"") == ["Other/classic.flac"])
        #expect(try files("find \"((performer == 'Jane Doe') AND (title == 'Tone 1'))\"") == [])
        // `any` is every tag, the raw ones too; a value no tag has finds nothing.
        #expect(try files("search any grammophon") == ["Other/classic.flac"])
        #expect(try files("search any zzzq") == [])
        #expect(try files("search \"(!(any contains 'zzzq'))\"").sorted() == all)
        // ArtistSort falls back to Artist, as mpd's.
        #expect(try files("find artistsort \"Sine Wave\"").sorted() == ["Long/tone1.flac", "Long/tone2.flac"])

        #expect(try client.command("count performer \"Jane Doe\"") == ["songs: 1", "playtime: 1", "OK"])
        #expect(try client.command("list title performer \"Jane Doe\"") == ["Title: Symphony", "OK"])
        #expect(try files("find label \"Deutsche Grammophon\" sort title") == ["Other/classic.flac"])
        #expect(try files("search \"(performer contains '')\" sort -title window 0:3").count == 3)
        #expect(try client.command("findadd performer \"Jane Doe\"") == ["OK"])
        #expect(try client.command("playlistfind performer \"Jane Doe\"").contains("file: Other/classic.flac"))
        #expect(try client.command("playlistsearch conductor karajan").contains("file: Other/classic.flac"))
        #expect(try client.command("searchaddpl classics work symphony") == ["OK"])
        #expect(try client.command("listplaylist classics") == ["file: Other/classic.flac", "OK"])
        #expect(try client.command("find \"(performer =~ '(')\"").last?.hasPrefix("ACK [2@0]") == true)
    }
}
