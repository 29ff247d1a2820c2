import Foundation
import Testing
import TestSupport
@testable import TagWriting

/// Issue 46, the race: between mlib's reading of a file and its in-place write lie the journal's write and
/// fsyncs (4.5–38 ms); another program's edit in that window was overwritten at the old offsets, and mlib
/// exited 0. The writer checks again right before the write (identity and the very bytes the edit was
/// computed from); these tests make the other program's edit in that window (`beforeInPlaceWrite`).
@Suite final class InPlaceRaceTests: TagWorkspace {
    /// A FLAC (ffmpeg leaves padding: both edits are in place) whose ARTIST another program sets in the
    /// window; with `keepTime` it puts the modification time back, so only the bytes tell.
    func race(keepTime: Bool) throws {
        let path = try TagFixtures.make(TagFixtures.formats.first { $0.name == "flac" }!, in: dir, name: keepTime ? "same-time" : "race")
        var racing = TagWriter(journal: writer.journal)
        racing.beforeInPlaceWrite = { _ in
            try? TagFixtures.python("""
                import os, mutagen
                st = os.stat(p)
                f = mutagen.File(p); f["ARTIST"] = ["Other Program"]; f.save()
                assert os.stat(p).st_size == st.st_size, "mutagen changed the size"
                if \(keepTime ? "True" : "False"): os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
                """, path)
        }
        let report = racing.edit(path, TagEdit(changes: [TagChange(argument: "title=New Title")!]), write: true)
        #expect(report.outcome == .failed, "\(report.outcome)")
        #expect(report.error?.contains("another program changed the file meanwhile") == true, "\(report.error ?? "")")
        let tags = try TagFixtures.mutagen(path)
        #expect(tags["artist"] as? [String] == ["Other Program"], "the other program's edit was lost: \(tags)")
        #expect(tags["title"] as? [String] == ["Old"])
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("journal").path)) ?? [] == [])
    }

    @Test func anEditInTheWindowIsKept() throws { try race(keepTime: false) }

    @Test func anEditInTheWindowIsKeptWithItsTimePutBack() throws { try race(keepTime: true) }
}
