import Foundation
import Glibc
import MediaModel
import Testing
import TestSupport
@testable import TagWriting

/// The check (`WriteCheck`) compares an MP3's or FLAC's frames directly instead of demuxing every packet
/// (`WriteCheck.CodedAudio`): these are the damages it must still refuse, each written through the writer's
/// own group (`SafeFileWriter.Group`) with the check, the file as it was afterwards.
@Suite final class CodedAudioCheckTests: TagWorkspace {
    static let edit = TagEdit(changes: [TagChange(argument: "title=New")!])

    /// Writes `rendering` to `path` through a group with the check; the error, or nil when written.
    func write(_ rendering: TagFile.Rendering, to path: String) throws -> TagWriteError? {
        let original = try FileIdentity.of(path: MediaPath(path))
        let group = SafeFileWriter.Group(writer: SafeFileWriter(journal: writer.journal), paths: [MediaPath(path)])
        group.add(0, rendering, to: MediaPath(path), original: original, check: WriteCheck(Self.edit))
        switch group.commit()[0] {
        case .failure(let error)?: return error
        default: return nil
        }
    }

    func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    func mp3() throws -> String { try TagFixtures.make(TagFixtures.formats.first { $0.name == "mp3-id3v2.4" }!, in: dir, seconds: 2) }

    /// The ID3v2 tag's size made 4 bytes larger in place: no byte of the frames is written, but the demuxer
    /// now looks for the first frame 4 bytes into it.
    @Test func aTagSizeThatMovesTheFirstFrameIsRefused() throws {
        let path = try mp3()
        let before = try bytes(path)
        var size = before[6..<10].reduce(0) { $0 << 7 | Int($1) }
        size += 4
        let header: [UInt8] = (0..<4).map { UInt8((size >> (7 * (3 - $0))) & 0x7F) }
        let error = try write(.patches([(offset: Int64(6), bytes: header)]), to: path)
        #expect(error.map { "\($0)" }?.contains("the audio's frames") == true, "\(String(describing: error))")
        #expect(try bytes(path) == before)
    }

    /// A rewrite whose copy has one byte of one frame changed: the same lengths, other audio.
    @Test func aRewriteWithOneAudioByteChangedIsRefused() throws {
        let path = try mp3()
        let before = try bytes(path)
        var content = before                   // written as a copy renamed over the file (a rewrite)
        content[before.count / 2] ^= 0x01
        let error = try write(.content(content), to: path)
        #expect(error.map { "\($0)" }?.contains("the audio's frames") == true, "\(String(describing: error))")
        #expect(try bytes(path) == before)
    }

    /// A FLAC written in place inside its frames: not compared by place (a byte written there), so by
    /// its packets, which differ.
    @Test func aFLACFrameWrittenInPlaceIsRefused() throws {
        let path = try TagFixtures.make(TagFixtures.formats.first { $0.name == "flac" }!, in: dir, seconds: 2)
        let before = try bytes(path)
        let at = before.count - 1000
        let error = try write(.patches([(offset: Int64(at), bytes: [before[at] ^ 0xFF])]), to: path)
        #expect(error.map { "\($0)" }?.contains("audio") == true, "\(String(describing: error))")
        #expect(try bytes(path) == before)
    }
}
