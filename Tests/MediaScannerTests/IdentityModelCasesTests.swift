import Foundation
@testable import MediaIndex
import Library
import MediaModel
import PostgresTestServer
@testable import MediaScanner
import Testing

/// The identity model's failures (IdentityModelTests with issue 47's release kinds), each cut down to the
/// few operations that cause it, on both stores. Each failed before the change that made it pass (the
/// commit that added it names the seed and step it came from).
@Suite(.serialized) struct IdentityModelCasesTests {
    /// Two releases of one recording (the same audio under other tags), One and Two, indexed; Two rated.
    struct Releases {
        let box: Sandbox
        let index: any LibraryStore
        let one: String, two: String
        let oneID: Int64, twoID: Int64

        init(_ store: Store) async throws {
            box = try Sandbox(store: store)
            let src = box.path + "/src.mp3"
            try SharedAudioMoveTests.source(src, format: "mp3")
            one = box.music.path + "/A/one.mp3"
            two = box.music.path + "/B/two.mp3"
            try SharedAudioMoveTests.retaggedCopy(src, to: one, title: "One")
            try SharedAudioMoveTests.retaggedCopy(src, to: two, title: "Two")
            try await box.scan()
            index = try box.store()
            oneID = try #require(try index.item(path: MediaPath(one))).persistentID
            twoID = try #require(try index.item(path: MediaPath(two))).persistentID
            try index.setRating(id: twoID, 4)
            try index.recordPlay(id: twoID, at: Date())
        }
    }

    // Seed 20261122, step 77: a copy of Two made beside it, then Two retagged by a tagger writing a new file
    // in another folder. The copy has Two's exact bytes; the retagged file has Two's audio, which One (still
    // there) has as well. That is also what a plain move by copy of Two looks like when a retagged copy of
    // One appears in the same scan, so mlib cannot know which file the user kept: neither takes Two's item,
    // and the scan names it as a possible move (was: the copy took it, by its content).
    @Test(arguments: Store.available)
    func aCopyBeforeARetagOfAudioAnotherReleaseSharesGoesToNeither(_ store: Store) async throws {
        let world = try await Releases(store)
        let copy = world.box.music.path + "/B/two copy.mp3"
        try FileManager.default.copyItem(atPath: world.two, toPath: copy)
        let kept = world.box.music.path + "/C/two (Live).mp3"
        try SharedAudioMoveTests.retaggedCopy(world.two, to: kept, title: "Two (Live)")
        try FileManager.default.removeItem(atPath: world.two)
        let summary = try await world.box.scan()

        let copied = try #require(try world.index.item(path: MediaPath(copy)))
        #expect(copied.persistentID != world.twoID && copied[.rating]?.integer == nil, "the copy took Two's item: \(summary)")
        let retagged = try #require(try world.index.item(path: MediaPath(kept)))
        #expect(retagged.persistentID != world.twoID, "\(summary)")
        #expect(summary.ambiguousMoves == [MediaPath(world.two)], "\(summary)")
        #expect(try world.index.item(path: MediaPath(world.one))?.persistentID == world.oneID)
    }

    // In-process model, seed 3 on PostgreSQL (killed scans): a scan killed after it had removed an item it
    // left unpaired (a possible move) and before it printed "no guess" told nobody: the item went with its
    // rating and plays unnamed. The scan now says its possible moves before the removal commits
    // (`MediaScanner.onPossibleMoves`, which `mlib scan` and `mlib watch` print): here the item is still in
    // the library when it is said, and gone after the scan.
    @Test(arguments: Store.available)
    func aPossibleMoveIsSaidBeforeTheScanRemovesIt(_ store: Store) async throws {
        let world = try await Releases(store)
        let copy = world.box.music.path + "/B/two copy.mp3"
        try FileManager.default.copyItem(atPath: world.two, toPath: copy)
        try SharedAudioMoveTests.retaggedCopy(world.two, to: world.box.music.path + "/C/two (Live).mp3", title: "Two (Live)")
        try FileManager.default.removeItem(atPath: world.two)

        final class Said: @unchecked Sendable {
            let lock = NSLock()
            var lines: [(path: MediaPath, stillThere: Bool)] = []
        }
        let said = Said(), index = world.index, twoID = world.twoID
        var scanner = MediaScanner(index: index)
        scanner.onPossibleMoves = { paths in
            // Hidden by the pairing, not removed yet: still in the library, with its rating and plays.
            let stillThere = (try? index.hiddenItems().contains { $0.id == twoID }) ?? false
            said.lock.withLock { said.lines += paths.map { ($0, stillThere) } }
        }
        let summary = try await scanner.scan(try index.roots())
        #expect(summary.ambiguousMoves == [MediaPath(world.two)] && summary.removed == 1, "\(summary)")
        let lines = said.lock.withLock { said.lines }
        #expect(lines.map(\.path) == [MediaPath(world.two)])
        #expect(lines.allSatisfy { $0.stillThere }, "said after the removal had committed")
        #expect(try index.item(id: twoID) == nil, "\(summary)")
        #expect(try !index.hiddenItems().contains { $0.id == twoID }, "\(summary)")
    }

    // Seed 8, steps 90 and 231: Two deleted, and a retagged copy of One written in Two's folder. The same audio
    // is One's, still there, so "the same audio" (one end) pairs nothing; but "the same audio payload in the
    // same folder" asked whether an item still there had the payload in the new file's folder only, found
    // none (One is elsewhere), and gave Two's item to One's copy. The other release's audio anywhere makes the
    // payload as doubtful as the end: neither takes it; a possible move.
    @Test(arguments: Store.available)
    func aRetaggedCopyOfAnotherReleaseInTheDeletedSongsFolderDoesNotTakeIt(_ store: Store) async throws {
        let world = try await Releases(store)
        // The copy is written before Two goes, so that it cannot land on Two's inode (the file's birth time
        // tells that case apart: `aRetaggedReleaseOnTheDeletedReleasesInodeDoesNotTakeThatItem`).
        let three = world.box.music.path + "/B/three.mp3"
        try SharedAudioMoveTests.retaggedCopy(world.one, to: three, title: "Three")
        try FileManager.default.removeItem(atPath: world.two)
        let summary = try await world.box.scan()

        let copy = try #require(try world.index.item(path: MediaPath(three)))
        #expect(copy.persistentID != world.twoID && copy[.rating]?.integer == nil && copy.playCount == 0,
                "One's copy took Two's item: \(summary)")
        #expect(summary.moved == 0 && summary.ambiguousMoves == [MediaPath(world.two)], "\(summary)")
        #expect(try world.index.item(path: MediaPath(world.one))?.persistentID == world.oneID)
    }

    // Seed 7, step 381 (and seed 9, step 498, once the two causes above were fixed): as the first case, but
    // with two new files of Two's audio under other tags (Two retagged as a new file, and a retagged copy of
    // One) beside Two's copy. Either may be Two retagged, and then the copy is a copy: the content is no
    // better a claim than when there is one such file. Neither takes Two's item (was: the copy, by its content).
    @Test(arguments: Store.available)
    func aCopyBesideSeveralRetaggedFilesOfItsAudioGoesToNeither(_ store: Store) async throws {
        let world = try await Releases(store)
        let copy = world.box.music.path + "/B/two copy.mp3"
        try FileManager.default.copyItem(atPath: world.two, toPath: copy)
        let kept = world.box.music.path + "/C/two (Live).mp3"
        try SharedAudioMoveTests.retaggedCopy(world.two, to: kept, title: "Two (Live)")
        let other = world.box.music.path + "/D/one (Remix).mp3"
        try SharedAudioMoveTests.retaggedCopy(world.one, to: other, title: "One (Remix)")
        try FileManager.default.removeItem(atPath: world.two)
        let summary = try await world.box.scan()

        for path in [copy, kept, other] {
            let item = try #require(try world.index.item(path: MediaPath(path)))
            #expect(item.persistentID != world.twoID && item[.rating]?.integer == nil, "\(path) took Two's item: \(summary)")
        }
        #expect(summary.ambiguousMoves == [MediaPath(world.two)], "\(summary)")
        #expect(try world.index.item(path: MediaPath(world.one))?.persistentID == world.oneID)
    }

    // Seeds 12 (step 212) and 13 (step 87): an item left unpaired because another release still had its audio
    // took a later file of that audio, an item of its own with a rating, once the other release was gone from
    // the library (its root forgotten, or its file replaced). Evidence weaker than the content pairs across
    // scans (a move seen by a scan of one root, then by a scan of all), and was judged unique against the
    // items there now, not those there when the row was added. Two here is not hidden by the scan of its
    // emptied folder (it may be an unmounted disk), so it vanishes only in the last scan. Each scan now records
    // which items had a new row's audio when it was added (`possible_moves`, schema v21 / pg v18), and that
    // record refuses the pairing as an item still there would.
    @Test(arguments: Store.available)
    func aPossibleMoveDoesNotTakeALaterFileOnceTheOtherReleaseIsGone(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let src = box.path + "/src.mp3"
        try SharedAudioMoveTests.source(src, format: "mp3")
        let first = MediaPath(box.music.path + "/R1"), second = MediaPath(box.music.path + "/R2")
        let one = first.string + "/A/one.mp3", two = second.string + "/B/two.mp3"
        try SharedAudioMoveTests.retaggedCopy(src, to: one, title: "One")
        try SharedAudioMoveTests.retaggedCopy(src, to: two, title: "Two")
        try await box.scan([first, second])
        let index = try box.store()
        let twoID = try #require(try index.item(path: MediaPath(two))).persistentID

        // Two deleted, seen by a scan of its folder: kept as it is (an emptied folder may be a disk away).
        try FileManager.default.removeItem(atPath: two)
        _ = try await MediaScanner(index: index).scan([MediaPath(second.string + "/B")])
        // A retagged copy of One: Two's audio as well, but One's too, so no move of Two.
        let three = second.string + "/C/three.mp3"
        try SharedAudioMoveTests.retaggedCopy(one, to: three, title: "Three")
        let added = try await MediaScanner(index: index).scan([MediaPath(second.string + "/C")])
        let threeID = try #require(try index.item(path: MediaPath(three))).persistentID
        #expect(threeID != twoID, "\(added)")
        try index.setRating(id: threeID, 5)
        try index.recordPlay(id: threeID, at: Date())

        // One's root forgotten: nothing else has that audio now, but Three is still no move of Two.
        try index.removeRoot(first)
        let summary = try await MediaScanner(index: index).scan([second])
        let item = try #require(try index.item(path: MediaPath(three)))
        #expect(item.persistentID == threeID && item[.rating]?.integer == 5 && item.playCount == 1, "Two took Three: \(summary)")
    }
    // Seed 10, step 46: Two copied to another root, then retagged by a tagger writing a new file in its own root,
    // Two's file gone. A scan of Two's root sees the retagged file, whose audio One (still there) has too, and
    // names Two a possible move (hidden); the scan of every root then finds the copy, new. The retagged file
    // was added after Two was found gone, so it is as much a claim as one added now: a copy made before a
    // retag and a move by copy beside another release's copy leave the same files, and neither takes Two
    // (was: the copy, by its content, since the retagged row was not new in that scan).
    @Test(arguments: Store.available)
    func aCopyFoundAfterAPossibleMoveDoesNotTakeTheItem(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let src = box.path + "/src.mp3"
        try SharedAudioMoveTests.source(src, format: "mp3")
        let first = MediaPath(box.music.path + "/R1"), second = MediaPath(box.music.path + "/R2")
        let one = first.string + "/A/one.mp3", two = first.string + "/B/two.mp3"
        try SharedAudioMoveTests.retaggedCopy(src, to: one, title: "One")
        try SharedAudioMoveTests.retaggedCopy(src, to: two, title: "Two")
        try FileManager.default.createDirectory(atPath: second.string, withIntermediateDirectories: true)
        try await box.scan([first, second])
        let index = try box.store()
        let twoID = try #require(try index.item(path: MediaPath(two))).persistentID
        try index.setRating(id: twoID, 4)

        let copy = second.string + "/X/two.mp3"
        try FileManager.default.createDirectory(atPath: second.string + "/X", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: two, toPath: copy)
        let kept = first.string + "/C/two (Live).mp3"
        try SharedAudioMoveTests.retaggedCopy(two, to: kept, title: "Two (Live)")
        try FileManager.default.removeItem(atPath: two)
        let partial = try await MediaScanner(index: index).scan([first])
        #expect(partial.ambiguousMoves == [MediaPath(two)], "\(partial)")
        let summary = try await MediaScanner(index: index).scan([first, second])

        for path in [copy, kept] {
            let item = try #require(try index.item(path: MediaPath(path)))
            #expect(item.persistentID != twoID && item[.rating]?.integer == nil, "\(path) took Two's item: \(summary)")
        }
        #expect(summary.ambiguousMoves == [MediaPath(two)], "\(summary)")
    }

    // Seed 10, step 288: Three, a retagged copy of One added while One was there (a possible copy of One), lies in
    // a root that is forgotten and added back; Two, another release of that audio, is a possible move (its file
    // gone) and One's root is forgotten too. Forgetting Three's root deleted its row and, with it, the record
    // that One had its audio when it was added (keyed by the row's id); the root's next scan added Three as a
    // new row while nothing shown had its audio, and Two's item took it by that audio. The record is kept by
    // the file's content (schema v22 / pg v19), so it holds for the same file indexed again.
    @Test(arguments: Store.available)
    func aPossibleCopyKeepsItsRecordWhenItsRootIsForgottenAndAddedBack(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let src = box.path + "/src.mp3"
        try SharedAudioMoveTests.source(src, format: "mp3")
        let first = MediaPath(box.music.path + "/R1"), second = MediaPath(box.music.path + "/R2")
        let third = MediaPath(box.music.path + "/R3")
        let one = first.string + "/A/one.mp3", two = second.string + "/B/two.mp3"
        try SharedAudioMoveTests.retaggedCopy(src, to: one, title: "One")
        try SharedAudioMoveTests.retaggedCopy(src, to: two, title: "Two")
        try FileManager.default.createDirectory(atPath: third.string, withIntermediateDirectories: true)
        try await box.scan([first, second, third])
        let index = try box.store()
        let twoID = try #require(try index.item(path: MediaPath(two))).persistentID
        try index.setRating(id: twoID, 4)

        // Two deleted, seen by a scan of its folder: kept as it is (an emptied folder may be a disk away).
        try FileManager.default.removeItem(atPath: two)
        _ = try await MediaScanner(index: index).scan([MediaPath(second.string + "/B")])
        // A retagged copy of One in the third root: One's audio, so no move of Two.
        let three = third.string + "/C/three.mp3"
        try SharedAudioMoveTests.retaggedCopy(one, to: three, title: "Three")
        let added = try await MediaScanner(index: index).scan([third])
        #expect(try index.item(path: MediaPath(three))?.persistentID != twoID, "\(added)")

        // One's root forgotten; Three's forgotten and added back: its file is the same, indexed again.
        try index.removeRoot(first)
        try index.removeRoot(third)
        try index.addRoot(third)
        let summary = try await MediaScanner(index: index).scan([second, third])
        let item = try #require(try index.item(path: MediaPath(three)))
        #expect(item.persistentID != twoID && item[.rating]?.integer == nil, "Three took Two's item: \(summary)")
    }

    // Seed 10, step 288 as the model ran it: Two, another release of One's audio, added while One was there (so
    // recorded as One's possible copy), lies in a root that is forgotten and added back after One's file is
    // gone. The record names One itself, and a record of the sought item was no objection (a file added by a
    // partial scan while the item, already moved, still looked there may be it). But One was then found in
    // place by a complete walk of its root after Two was recorded: Two was there beside it, so it is not One
    // moved. Was: One took Two, indexed again as a new row, by the same audio.
    @Test(arguments: Store.available)
    func aFileRecordedBesideAnItemIsNotThatItemWhenIndexedAgain(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let src = box.path + "/src.mp3"
        try SharedAudioMoveTests.source(src, format: "mp3")
        let first = MediaPath(box.music.path + "/R1"), second = MediaPath(box.music.path + "/R2")
        let one = first.string + "/A/one.mp3", two = second.string + "/B/two.mp3"
        try SharedAudioMoveTests.retaggedCopy(src, to: one, title: "One")
        try FileManager.default.createDirectory(atPath: second.string, withIntermediateDirectories: true)
        try await box.scan([first, second])
        let index = try box.store()
        let oneID = try #require(try index.item(path: MediaPath(one))).persistentID
        try index.setRating(id: oneID, 4)
        try SharedAudioMoveTests.retaggedCopy(src, to: two, title: "Two")
        _ = try await MediaScanner(index: index).scan([first, second])
        #expect(try index.item(path: MediaPath(two))?.persistentID != oneID)

        try FileManager.default.removeItem(atPath: one)
        try index.removeRoot(second)
        try index.addRoot(second)
        let summary = try await MediaScanner(index: index).scan([first, second])
        let item = try #require(try index.item(path: MediaPath(two)))
        #expect(item.persistentID != oneID && item[.rating]?.integer == nil, "Two took One's item: \(summary)")
    }

    // `mlib watch` model, seed 6 (issue 47, second round; found gone at step 487): One retagged by a tagger
    // writing a new file (Live), seen by a scan of its folders only: Two (another release, still there) has
    // the audio too, so One is a possible move, then dropped for good (as a scan of every root drops it, while
    // Two's root is not walked completely: there its disk was away). Then Two deleted, seen by a scan of its
    // folder: Live, added after Two's root was last walked completely and with Two's audio, is the only
    // candidate. But Live was indexed while Two was still there: it is a file of One's song, not Two moved.
    @Test(arguments: Store.available)
    func aRetaggedFileIndexedBesideAnotherReleaseDoesNotTakeItOnceItIsDeleted(_ store: Store) async throws {
        let world = try await Releases(store)
        let live = world.box.music.path + "/C/one (Live).mp3"
        try SharedAudioMoveTests.retaggedCopy(world.one, to: live, title: "One (Live)")
        try FileManager.default.removeItem(atPath: world.one)
        let first = try await MediaScanner(index: world.index).scan([MediaPath(world.box.music.path + "/A"), MediaPath(world.box.music.path + "/C")])
        #expect(first.ambiguousMoves == [MediaPath(world.one)], "\(first)")
        try world.index.removeItems([world.oneID])
        let liveID = try #require(try world.index.item(path: MediaPath(live))).persistentID

        try FileManager.default.removeItem(atPath: world.two)
        let summary = try await MediaScanner(index: world.index).scan([MediaPath(world.box.music.path + "/B")])
        let item = try #require(try world.index.item(path: MediaPath(live)))
        #expect(item.persistentID == liveID && item.persistentID != world.twoID && item[.rating]?.integer == nil,
                "Live took Two's item: \(summary)")
    }

    // `mlib watch` model, seed 11 (issue 47, third round; step 227): One, on a disk mounted inside root R1, is
    // deleted and hidden by a scan of the disk; then the disk goes away. Two (another release, in R2) is
    // retagged by a tagger writing a new file (Live): One and Two both have Live's audio, so a scan of every
    // root names both as possible moves ("no guess"). That scan walks R2 completely, so Two's window closes
    // on Live; R1 cannot be walked completely while its disk is away, so One's stays open, and the next scan
    // found One the one item with Live's audio: Live took One's rating and play. The "no guess" held only
    // while Two's claim was there; it is now recorded against Live for good (`recordUndecidedMoves`). Keeping
    // weak evidence from an item on a disk that is away (the first fix tried) only put this off until the
    // disk was back, as the watch model then showed: hence the scan with the disk mounted again.
    @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root"), arguments: Store.available)
    func aPossibleMoveStaysOneWhenTheOtherClaimLeaves(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let src = box.path + "/src.mp3"
        try SharedAudioMoveTests.source(src, format: "mp3")
        let first = MediaPath(box.music.path + "/R1"), second = MediaPath(box.music.path + "/R2")
        let disk = first.string + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        try #require(run("/bin/mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", disk]) == 0, "mount -t tmpfs failed")
        defer { _ = run("/bin/umount", ["-l", disk]) }
        let one = disk + "/one.mp3", two = second.string + "/B/two.mp3", live = second.string + "/C/two (Live).mp3"
        try SharedAudioMoveTests.retaggedCopy(src, to: one, title: "One")
        try box.put("a.mp3", at: "R1/disk/other.mp3")      // the disk is not empty once One is deleted
        try SharedAudioMoveTests.retaggedCopy(src, to: two, title: "Two")
        try await box.scan([first, second])
        let index = try box.store()
        let oneID = try #require(try index.item(path: MediaPath(one))).persistentID
        try index.setRating(id: oneID, 4)
        try index.recordPlay(id: oneID, at: Date())

        try FileManager.default.removeItem(atPath: one)
        let hid = try await MediaScanner(index: index).scan([MediaPath(disk)])
        #expect(hid.removed == 1, "\(hid)")
        try #require(run("/bin/umount", [disk]) == 0)
        try SharedAudioMoveTests.retaggedCopy(two, to: live, title: "Two (Live)")
        try FileManager.default.removeItem(atPath: two)
        let both = try await MediaScanner(index: index).scan([first, second])
        #expect(Set(both.ambiguousMoves) == [MediaPath(one), MediaPath(two)], "\(both)")

        let away = try await MediaScanner(index: index).scan([first, second])
        var item = try #require(try index.item(path: MediaPath(live)))
        #expect(item.persistentID != oneID && item[.rating]?.integer == nil && item.playCount == 0,
                "Live took One's item, whose disk is away: \(away)")

        try #require(run("/bin/mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", disk]) == 0)
        try box.put("a.mp3", at: "R1/disk/other.mp3")
        let back = try await MediaScanner(index: index).scan([first, second])
        item = try #require(try index.item(path: MediaPath(live)))
        #expect(item.persistentID != oneID && item[.rating]?.integer == nil && item.playCount == 0,
                "Live took One's item once the disk was back: \(back)")
    }

    // `mlib watch` model, seed 18 (issue 47, third round; step 143): a copy of Two made, then Two retagged by a
    // tagger writing a new file; the watcher's scan of those folders left Two on neither file (One, still
    // there, has the retagged file's audio) and hid it. Then a scan of every root that added no file: the
    // check that a copy made before a retag is the weaker claim was skipped when the scan had no generation
    // of its own (it added nothing), so the copy took Two by its content. Was: the copy held Two's item.
    @Test(arguments: Store.available)
    func aCopyBeforeARetagLeftToNeitherStaysSoInAScanThatAddsNothing(_ store: Store) async throws {
        let world = try await Releases(store)
        let copy = world.box.music.path + "/B/two copy.mp3"
        try FileManager.default.copyItem(atPath: world.two, toPath: copy)
        let kept = world.box.music.path + "/C/two (Live).mp3"
        try SharedAudioMoveTests.retaggedCopy(world.two, to: kept, title: "Two (Live)")
        try FileManager.default.removeItem(atPath: world.two)
        let folders = try await MediaScanner(index: world.index).scan([MediaPath(world.box.music.path + "/B"),
                                                                      MediaPath(world.box.music.path + "/C")])
        #expect(folders.ambiguousMoves == [MediaPath(world.two)], "\(folders)")

        let summary = try await world.box.scan()
        #expect(summary.added == 0, "\(summary)")
        let copied = try #require(try world.index.item(path: MediaPath(copy)))
        #expect(copied.persistentID != world.twoID && copied[.rating]?.integer == nil, "the copy took Two's item: \(summary)")
        #expect(try world.index.item(path: MediaPath(kept))?.persistentID != world.twoID)
    }

    // In-process model, seed 12, step 273 (MLIB_MODEL_KILL_AFTER_MS=2000; on both stores): One deleted, then
    // Two (another release: One's audio under other tags) retagged by a tagger writing a new file into One's
    // folder. The file system gives the new file One's freed inode number (ext4 does, for the next file made
    // in that folder), so the new file has One's inode, One's folder and One's audio end: evidence 3 ("the
    // same file, retagged") takes it for One retagged in place and renamed: One's item (another song) takes
    // Two's file, and Two's item (rated, played) is removed unnamed. mlib(1) says an inode alone is never
    // trusted; here the unchanged end is no help, since both releases have it. Now the same file needs the
    // same birth time (statx, schema v24 / pg v21), which a new file on a reused inode does not have.
    // Failed on both stores before (session 18, the test disabled; session 19 with the birth time unused).
    @Test(arguments: Store.available)
    func aRetaggedReleaseOnTheDeletedReleasesInodeDoesNotTakeThatItem(_ store: Store) async throws {
        try await Self.retaggedReleaseOnTheDeletedReleasesInode(store, birthTimesKnown: true)
    }

    // The same where the birth time cannot tell (a library read before schema v24, a file system without
    // birth times): the same file's claim on the row yields to Two's (the same audio): neither takes it,
    // both are named as possible moves.
    @Test(arguments: Store.available)
    func withoutBirthTimesAReusedInodeThatAnotherItemsAudioClaimsGoesToNeither(_ store: Store) async throws {
        try await Self.retaggedReleaseOnTheDeletedReleasesInode(store, birthTimesKnown: false)
    }

    static func retaggedReleaseOnTheDeletedReleasesInode(_ store: Store, birthTimesKnown: Bool) async throws {
        let world = try await Releases(store)
        if !birthTimesKnown {
            let sql = try #require(world.index as? SQLStore)
            try sql.connection.write { x in try x.execute("UPDATE items SET scan_birth = NULL") }
        } else {
            let sql = try #require(world.index as? SQLStore)
            let births = try sql.connection.read { x in try x.rows("SELECT scan_birth FROM items").map { $0.int64(0) } }
            try #require(births.count == 2 && births.allSatisfy { $0 != nil }, "this file system gives no birth times: \(births)")
        }
        let written = world.box.path + "/two (Live).mp3", live = world.box.music.path + "/A/two (Live).mp3"
        try SharedAudioMoveTests.retaggedCopy(world.two, to: written, title: "Two (Live)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: written))
        var before = stat(), after = stat()
        #expect(stat(world.one, &before) == 0)
        try FileManager.default.removeItem(atPath: world.one)
        // The next file made in that folder: most often on the inode just freed (a few tries, else visibly not run).
        for _ in 0..<10 {
            try bytes.write(to: URL(fileURLWithPath: live))
            guard stat(live, &after) == 0, after.st_ino != before.st_ino else { break }
            try FileManager.default.removeItem(atPath: live)
        }
        try FileManager.default.removeItem(atPath: world.two)
        // Whether ext4 hands out the freed inode depends on what else makes files meanwhile (a busy machine's
        // other tests did, once in a CI run): then the case cannot be set up, which is said, not failed.
        guard after.st_ino == before.st_ino else {
            withKnownIssue("the file system did not reuse One's inode: the case is not exercised", isIntermittent: true) {
                Issue.record("One's inode \(before.st_ino) was not reused (the new file got \(after.st_ino))")
            }
            return
        }
        let summary = try await world.box.scan()

        let item = try #require(try world.index.item(path: MediaPath(live)))
        #expect(item.persistentID != world.oneID, "One's item took Two's retagged file (One's freed inode): \(summary)")
        if !birthTimesKnown {
            #expect(item.persistentID != world.twoID && item[.rating]?.integer == nil, "\(summary)")
            #expect(Set(summary.ambiguousMoves) == [MediaPath(world.one), MediaPath(world.two)], "\(summary)")
        }
    }

    // `mlib watch` model, seeds 4 (step 316) and 18 (step 393), now and then: `mlib scan` read what it
    // remembers for a scan (roots, mounts, hidden items) before it took the scan lock, while the watcher's
    // scan held it; that scan then found a hidden item (Two, retagged by a tagger writing a new file beside
    // a copy made before) and gave it the retagged file. The waiting scan still took Two for hidden at its
    // old path, gave it the copy by its content, and the retagged file was left without an item. Here the
    // other scan runs between the first reading and the scan. Was: Live had no item (one item for two files).
    // SQLite only: on PostgreSQL they are read again only when the scan waited for the lock (one statement
    // more, PostgresRescanRoundTripTests), which this test does not do (it failed there too before).
    @Test func aScanReadsTheHiddenItemsAgainOnceItHoldsTheLock() async throws {
        let box = try Sandbox(store: .sqlite)
        let src = box.path + "/src.mp3"
        try SharedAudioMoveTests.source(src, format: "mp3")
        let two = box.music.path + "/A/two.mp3"
        try SharedAudioMoveTests.retaggedCopy(src, to: two, title: "Two")
        try box.put("a.mp3", at: "A/other.mp3")
        try await box.scan()
        let index = try box.store()
        let twoID = try #require(try index.item(path: MediaPath(two))).persistentID
        let copy = box.music.path + "/B/two copy.mp3", live = box.music.path + "/C/two (Live).mp3"
        try FileManager.default.createDirectory(atPath: box.music.path + "/B", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: two, toPath: copy)
        try SharedAudioMoveTests.retaggedCopy(two, to: live, title: "Two (Live)")
        try FileManager.default.removeItem(atPath: two)
        _ = try await MediaScanner(index: index).scan([MediaPath(box.music.path + "/A")])      // hides Two

        let waiting = Library(store: try box.store())
        waiting.rememberRoots(true)                        // as `mlib scan` does before its scan
        defer { waiting.rememberRoots(false) }
        #expect(try waiting.store.roots() == [box.root()])
        let other = try await MediaScanner(index: index).scan([MediaPath(box.music.path + "/B"), MediaPath(box.music.path + "/C")])
        #expect(try index.item(path: MediaPath(live))?.persistentID == twoID, "\(other)")

        let result = try await waiting.scan()
        let kept = try #require(try index.item(path: MediaPath(live)), "Live has no item: \(result.summary)")
        #expect(kept.persistentID == twoID)
        #expect(try index.item(path: MediaPath(copy))?.persistentID != twoID)
    }
}
