import Foundation
import Testing
import TestSupport

/// Issue 49: files whose codec this FFmpeg cannot decode (an AC-4 MP4; a 32-bit FLAC, which FFmpeg 5.1 opens
/// and decodes none of) beside one it can. `scan` indexes all three, `ls 'decodable == NO'` finds the two,
/// `play` and `analyze` say of each "this FFmpeg cannot decode …" and exit 1, and the decodable one is played
/// and analysed all the same. Before: `decodable` was an unknown property, the 32-bit FLAC "played" (silence,
/// exit 0) and was "analysed".
@Suite(.enabled(if: UndecodableMedia.ffmpeg != nil && UndecodableMedia.flac != nil, "ffmpeg or flac is not installed"))
struct UndecodableCommandTests {
    struct Files {
        let folder: FixtureFolder
        let plain: String, ac4: String, wide: String
        /// FFmpeg 6.1 and later decode 32-bit FLAC: then it is an ordinary file here.
        let wideDecodes: Bool
        var undecodable: [String] { [ac4] + (wideDecodes ? [] : [wide]) }
    }

    static func files(_ label: String) throws -> Files {
        let folder = try FixtureFolder(label, copying: ["ogg-vorbis.ogg"], as: ["plain.ogg"])
        let ac4 = try UndecodableMedia.mp4(in: folder.music, fourcc: "ac-4", config: "dac4")
        let wide = try UndecodableMedia.flac32(in: folder.music)
        return Files(folder: folder, plain: folder.music.appendingPathComponent("plain.ogg").path, ac4: ac4.path, wide: wide.path,
                     wideDecodes: try UndecodableMedia.ffmpegDecodes(wide))
    }

    @Test func playSaysWhatThisFFmpegCannotDecodeAndPlaysTheRest() throws {
        let f = try Self.files("play-undecodable")
        defer { f.folder.remove() }
        let r = try CLI.run(["play", "--files", f.plain, f.ac4, f.wide, "--sink", "null:fast"])
        #expect(r.status == 1, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("ac-4.mp4: this FFmpeg cannot decode ac-4"), "\(r.stderr)")
        if !f.wideDecodes { #expect(r.stderr.contains("wide.flac: this FFmpeg cannot decode 32-bit FLAC"), "\(r.stderr)") }
        #expect(r.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("mlib:") }.count == f.undecodable.count, "\(r.stderr)")
        #expect(r.out.contains("Café Smørrebrød 日本語"), "the decodable file plays: \(r.out)")

        // Alone: exit 1 and the one line (the 32-bit FLAC "played" silence with exit 0).
        for file in f.undecodable {
            let alone = try CLI.run(["play", "--files", file, "--sink", "null:fast"])
            #expect(alone.status == 1 && alone.stderr.contains("this FFmpeg cannot decode"), "\(file): \(alone.status) \(alone.stderr)")
        }
    }

    /// An encrypted (CENC) track, which FFmpeg opens as AAC and then fails on packet by packet: `play` says
    /// what the reader found ("encrypted (cenc)"), not the decoder's "no decodable audio (37 damaged
    /// packets)" it said before.
    @Test func playSaysAnEncryptedTrackIsEncrypted() throws {
        let folder = try FixtureFolder("play-encrypted", copying: [], as: [])
        defer { folder.remove() }
        let sealed = try ReadingRoundThreeFiles.cencEncryptedAAC(folder.music)
        let r = try CLI.run(["play", "--files", sealed.path, "--sink", "null:fast"])
        #expect(r.status == 1 && r.stderr.contains("encrypted (cenc)"), "\(r.status) \(r.stderr)")
    }

    @Test func scanIndexesThemLsFindsThemAnalyzeSaysWhy() throws {
        let f = try Self.files("scan-undecodable")
        defer { f.folder.remove() }
        let scan = try f.folder.mlib(["scan", f.folder.music.path])
        #expect(scan.status == 0 && scan.out.contains("3 added") && scan.out.contains("0 failed"), "\(scan.out) \(scan.stderr)")
        let found = try f.folder.mlib(["ls", "-f", "$path", "decodable == NO"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(Set(found.out.split(separator: "\n").map(String.init)) == Set(f.undecodable), "\(found.out)")
        let why = try f.folder.mlib(["ls", "-f", "$undecodableReason", #"decodable == NO AND audioCodec == "ac-4""#])
        #expect(why.out == "this FFmpeg cannot decode ac-4\n", "\(why.out) \(why.stderr)")

        let analyze = try f.folder.mlib(["analyze"])
        #expect(analyze.status == 1, "\(analyze.out) \(analyze.stderr)")
        #expect(analyze.stderr.contains("ac-4.mp4: this FFmpeg cannot decode ac-4"), "\(analyze.stderr)")
        if !f.wideDecodes { #expect(analyze.stderr.contains("wide.flac: this FFmpeg cannot decode 32-bit FLAC"), "\(analyze.stderr)") }
        #expect(analyze.out.contains("analysed \(3 - f.undecodable.count) of 3 items"), "\(analyze.out)")
        let measured = try f.folder.mlib(["ls", "-f", "$path", "loudness != nil"])
        #expect(measured.out == f.plain + "\n" + (f.wideDecodes ? f.wide + "\n" : ""), "\(measured.out)")
    }
}
