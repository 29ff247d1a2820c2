import Foundation
import Testing
import TestSupport

/// Issue 41's bad input: read what is sound, say the rest, never hang, bounded memory. Each file is made
/// here: a tone by ffmpeg, tags by mutagen, sidecars by a few bytes of Python or Swift.
@Suite(.serialized, .enabled(if: LyricsCorpus.available, "ffmpeg or python3-mutagen missing (scripts/install-deps.sh)"))
struct LyricsBadInputTests {
    let dir: URL
    let audio: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-lyrics-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        audio = dir.appendingPathComponent("tone.mp3")
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=duration=5", "-c:a", "libmp3lame",
                                                   "-b:a", "32k", audio.path])
        try #require(made.status == 0, "\(made.stderr)")
    }

    func copy(_ name: String) throws -> String {
        let to = dir.appendingPathComponent(name)
        try FileManager.default.copyItem(at: audio, to: to)
        return to.path
    }

    func sets(_ r: ChildProcess.Output) throws -> [[String: Any]] {
        let array = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]], "\(r.out)\(r.stderr)")
        return try #require(array.first?["lyrics"] as? [[String: Any]])
    }

    /// A missing file and one this user cannot read: one line each, saying why, status 1 (not a second
    /// "no lyrics" line after it).
    @Test func aMissingOrUnreadableFileIsOneLine() throws {
        let missing = try CLI.run(["lyrics", dir.appendingPathComponent("gone.mp3").path])
        #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
        #expect(missing.stderr.contains("gone.mp3: no such file"))
        let locked = try copy("locked.mp3")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: locked) }
        // Root reads a file of mode 000: the check needs another user.
        guard getuid() != 0 else { return }
        let unreadable = try CLI.run(["lyrics", locked])
        #expect(unreadable.status == 1 && unreadable.stderr.split(separator: "\n").count == 1, "\(unreadable.stderr)")
    }

    /// A file that is not media (text named .flac, issue 41's `mlib lyrics bad.flac`) says so in one line,
    /// status 1, rather than "no lyrics" as if it were a song without any; with --json, as its warning.
    @Test func aFileThatIsNotMediaSaysSo() throws {
        let bad = dir.appendingPathComponent("bad.flac")
        try Data("this is not audio, only text in a file named .flac\n".utf8).write(to: bad)
        let r = try CLI.run(["lyrics", bad.path])
        #expect(r.status == 1 && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("bad.flac: not a media file"), "\(r.stderr)")
        #expect(!r.stderr.contains("no lyrics"), "\(r.stderr)")
        let json = try CLI.run(["lyrics", "--json", bad.path])
        #expect(json.status == 1 && json.stderr.contains("bad.flac: not a media file"), "\(json.stderr)")
        #expect(json.out.contains("not a media file"), "\(json.out)")
    }

    /// A sidecar that is a FIFO is never opened (reading it would wait for a writer forever); one that is a
    /// symbolic link out of the folder is not followed; a link inside it is.
    @Test func fifoAndOutwardLinkAreNotRead() throws {
        let fifo = try copy("fifo.mp3")
        #expect(mkfifo(dir.appendingPathComponent("fifo.lrc").path, 0o644) == 0)
        let started = Date()
        let r = try CLI.run(["lyrics", "--json", fifo])
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(try r.status == 1 && sets(r).isEmpty)
        #expect(r.stderr.contains("fifo.lrc: not a regular file: not read"), "\(r.stderr)")

        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-lyrics-out-\(UUID().uuidString).lrc")
        try Data("[00:01.00]from outside\n".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        let out = try copy("out.mp3")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("out.lrc").path, withDestinationPath: outside.path)
        let o = try CLI.run(["lyrics", "--json", out])
        #expect(try o.status == 1 && sets(o).isEmpty)
        #expect(o.stderr.contains("out.lrc: a symbolic link leading out of"), "\(o.stderr)")

        try FileManager.default.createDirectory(at: dir.appendingPathComponent("texts"), withIntermediateDirectories: true)
        try Data("[00:01.00]from inside\n".utf8).write(to: dir.appendingPathComponent("texts/in.lrc"))
        let inside = try copy("in.mp3")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("in.lrc").path, withDestinationPath: "texts/in.lrc")
        let i = try CLI.run(["lyrics", inside])
        #expect(i.status == 0 && i.out == "from inside\n", "\(i.out)\(i.stderr)")
    }

    /// A 50 MB .lrc: only the first MiB is read (LyricsReader.sidecarCap), up to its last whole line, and said.
    @Test func hugeSidecarIsReadUpToTheCap() throws {
        let big = try copy("big.mp3")
        let line = Data("[00:01.00]x\n".utf8)
        let handle = try FileHandle(forWritingTo: { let u = dir.appendingPathComponent("big.lrc"); FileManager.default.createFile(atPath: u.path, contents: nil); return u }())
        var block = Data()
        for _ in 0..<(1 << 16) { block.append(line) }   // 768 KiB
        for _ in 0..<(50 * 1024 * 1024 / block.count) { handle.write(block) }
        try handle.close()
        let started = Date()
        let r = try CLI.run(["lyrics", big])
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(r.status == 0)
        #expect(r.stderr.contains("more than the 1048576-byte cap: only its first 1048576 bytes read"), "\(r.stderr)")
        #expect(r.out.split(separator: "\n").count == (1 << 20) / line.count, "whole lines of the first MiB")
    }

    /// A SYLT frame whose declared length cuts its last entry keeps the entries before it; one declared
    /// longer than the tag is dropped; the USLT frame before either is read, and nothing hangs.
    @Test func syltWithABrokenLength() throws {
        let script = dir.appendingPathComponent("broken.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let made = try ChildProcess.run("python3", [script.path, audio.path, dir.path])
        try #require(made.status == 0, "\(made.stderr)")
        let short = try sets(try CLI.run(["lyrics", "--json", dir.appendingPathComponent("sylt-short.mp3").path]))
        #expect(short.map { $0["source"] as? String } == ["uslt", "sylt"])
        #expect(short.first?["text"] as? String == "Still here")
        #expect((short.last?["lines"] as? [[String: Any]])?.map { $0["text"] as? String } == ["One", "Two"])
        #expect((short.last?["lines"] as? [[String: Any]])?.map { $0["start"] as? Int } == [1000, 2000])
        for name in ["sylt-long.mp3", "sylt-zero.mp3"] {
            let r = try CLI.run(["lyrics", "--json", dir.appendingPathComponent(name).path])
            #expect(try sets(r).map { $0["text"] as? String } == ["Still here"], "\(name)")
        }
    }

    static let script = #"""
        import sys, shutil
        from mutagen.id3 import ID3, USLT, SYLT
        src, d = sys.argv[1], sys.argv[2]
        def syncsafe(n): return bytes([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f])
        def unsync(b): return (b[0] << 21) | (b[1] << 14) | (b[2] << 7) | b[3]
        # The SYLT frame is the tag's last (no padding): its size cut by 7 bytes (into "Three"), past the tag's
        # end, and 0.
        for name, change in [("short", lambda n: n - 7), ("long", lambda n: 0x0FFFFFFF), ("zero", lambda n: 0)]:
            path = "%s/sylt-%s.mp3" % (d, name)
            shutil.copy(src, path)
            t = ID3()
            t.add(USLT(encoding=3, lang="eng", desc="", text="Still here"))
            t.add(SYLT(encoding=3, lang="eng", format=2, type=1, desc="", text=[("One", 1000), ("Two", 2000), ("Three", 3000)]))
            t.save(path, v2_version=4, padding=lambda info: 0)
            data = bytearray(open(path, "rb").read())
            at = data.index(b"SYLT")
            data[at + 4:at + 8] = syncsafe(change(unsync(data[at + 4:at + 8])))
            open(path, "wb").write(bytes(data))
        """#
}
