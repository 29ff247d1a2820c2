import Foundation
@testable import MediaIndex
import Library
import MediaModel
import PostgresTestServer
@testable import MediaScanner
import Testing
import TestSupport

/// Issue 47: a bind-mounted root has its parent's device number, so it was not seen as a mount; unmounted,
/// it looked empty, its items became pair-only and a copy made from it took them (and their ratings). The
/// scanner reads mounts from the kernel's mount table: a root that stops being a mount is "not mounted".
@Suite(.serialized) struct BindMountIdentityTests {
    @Test(.enabled(if: geteuid() == 0, "mount --bind needs root"), arguments: Store.available)
    func anUnmountedBindMountedRootKeepsItsItemsFromACopy(_ store: Store) async throws {
        let t = try IdentityTests.TwoRoots(store)
        let disk = t.box.url.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk.appendingPathComponent("Album"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Templates.url("a.mp3"), to: disk.appendingPathComponent("Album/a.mp3"))
        // Root in a container without CAP_SYS_ADMIN cannot mount: said, not passed silently.
        guard run("/bin/mount", ["--bind", disk.path, t.r2.path]) == 0 else { try Test.cancel("mount --bind failed here (no CAP_SYS_ADMIN?)") }
        defer { _ = run("/bin/umount", ["-l", t.r2.path]) }
        _ = try t.put("c.ogg", at: "r1/keep.ogg")
        try await t.scanAll()
        let index = try t.box.store()
        let onDisk = MediaPath(t.r2.path + "/Album/a.mp3")
        let id = try #require(try index.item(path: onDisk)).persistentID
        try index.setRating(id: id, 5)

        // A copy made from the mounted disk, then the disk unmounted: the copy is a new item.
        let copy = t.r1.path + "/Album/a.mp3"
        try FileManager.default.createDirectory(atPath: t.r1.path + "/Album", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: onDisk.string, toPath: copy)
        try #require(run("/bin/umount", [t.r2.path]) == 0)
        let away = try await t.scanAll()
        #expect(away.moved == 0 && away.removed == 0 && away.missingRoots.map(\.path) == [MediaPath(t.r2.path)], "\(away)")
        let kept = try #require(try index.item(path: onDisk), "the unmounted root's item was lost: \(away)")
        #expect(kept.persistentID == id && kept[.rating]?.integer == 5)
        let copied = try #require(try index.item(path: MediaPath(copy)))
        #expect(copied.persistentID != id && copied[.rating]?.integer == nil)

        // Mounted again: the item is there as it was, nothing to add.
        try #require(run("/bin/mount", ["--bind", disk.path, t.r2.path]) == 0)
        let back = try await t.scanAll()
        #expect(back.added == 0 && back.removed == 0 && !back.hasProblems, "\(back)")
        #expect(try index.item(path: onDisk)?.persistentID == id)
        #expect(try index.count(MediaQuery()) == 3)
    }

    @Test func theKernelMountTableListsBindMountsAndDecodesEscapes() {
        let text = Array("""
            22 1 0:21 / / rw - overlay overlay rw
            36 22 8:1 /srv/store /music/My\\040Disk rw,relatime - ext4 /dev/sda1 rw
            37 22 0:50 / /mnt/fuse rw - fuse.sshfs host:/x rw
            """.utf8)
        #expect(KernelMountTable.mountPoints(in: text) == [MediaPath("/"), MediaPath("/music/My Disk"), MediaPath("/mnt/fuse")])
    }
}
