import Foundation
import MediaModel
import Testing
@testable import Playlists

@Suite struct AtomicWriteTests {
    @Test func replacesKeepingModeAndLeavesNoTemporary() throws {
        let dir = try TempDirectory()
        defer { dir.remove() }
        let file = dir.path + "/list.m3u8"
        try FileBytes.writeAtomically(Array("old\n".utf8), to: MediaPath(file))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
        try FileBytes.writeAtomically(Array("new\n".utf8), to: MediaPath(file))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["list.m3u8"])
    }

    @Test func failureLeavesTheOldFileAndNoTemporary() throws {
        let dir = try TempDirectory()
        defer { dir.remove() }
        // The target is a non-empty directory: rename(2) must fail after the temporary was written.
        let target = dir.path + "/taken"
        try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
        #expect(throws: PlaylistError.self) { try FileBytes.writeAtomically(Array("x".utf8), to: MediaPath(target)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["taken"])
        #expect(throws: PlaylistError.self) { try FileBytes.writeAtomically([], to: MediaPath(dir.path + "/no/such/dir/x.m3u")) }
    }

    @Test func nonUTF8FileName() throws {
        let dir = try TempDirectory()
        defer { dir.remove() }
        let name = MediaPath(bytes: Array((dir.path + "/caf").utf8) + [0xE9, 0x2E, 0x6D, 0x33, 0x75])
        try FileBytes.writeAtomically([1, 2, 3], to: name)
        #expect(try FileBytes.read(name) == [1, 2, 3])
    }
}
