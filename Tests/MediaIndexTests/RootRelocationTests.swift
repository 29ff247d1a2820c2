import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// `mlib root move` on both stores with a path that is not UTF-8 below the root (a Latin-1 name from an old
/// disk): its bytes are kept exactly, its item keeps its id, and nothing else under the root is left behind.
struct RootRelocationTests {
    /// "/mnt/nas/Caf\u{E9}" in Latin-1: 0xE9 alone is not UTF-8.
    static func latin1(_ prefix: String, _ rest: String) -> MediaPath {
        MediaPath(bytes: Array(prefix.utf8) + Array("/Caf".utf8) + [0xE9] + Array(rest.utf8))
    }

    @Test(arguments: Store.available) func aRootWithANonUTF8PathBelowItMovesWhole(_ store: Store) throws {
        let index = try store.emptyLibrary()
        try index.addRoot(MediaPath("/mnt/nas"))
        var latin = sampleItem("/x", title: "latin")
        latin.path = Self.latin1("/mnt/nas", "/1.mp3")
        #expect(!latin.path.isUTF8)
        let ids = try add([latin, sampleItem("/mnt/nas/plain/2.mp3", title: "plain")], to: index)
        try index.setRating(id: ids[0], 4)
        try index.apply([.fail(Self.latin1("/mnt/nas", "/bad.mp3"), stamp(1), code: "empty", message: "e")], generation: nil)

        try index.relocateRoot(MediaPath("/mnt/nas"), to: MediaPath("/media/nas"))

        #expect(try index.roots() == [MediaPath("/media/nas")])
        let moved = try #require(try index.item(path: Self.latin1("/media/nas", "/1.mp3")))
        #expect(moved.persistentID == ids[0] && moved[.rating]?.integer == 4)
        #expect(try index.item(path: MediaPath("/media/nas/plain/2.mp3"))?.persistentID == ids[1])
        #expect(try index.directoryState(Self.latin1("/media/nas", "")).items.keys.map(\.bytes) == [Self.latin1("/media/nas", "/1.mp3").bytes])
        #expect(try index.failures().map(\.path.bytes) == [Self.latin1("/media/nas", "/bad.mp3").bytes])
        #expect(try index.items(MediaQuery()).allSatisfy { $0.path.hasPrefix(directory: MediaPath("/media/nas")) })
    }

    /// A root cannot move inside itself (`/m` → `/m/sub`: every path would be rewritten onto paths under
    /// the old root) nor onto another root or its subtree (two roots would claim the same files). The
    /// refusal names both paths and leaves the library as it was.
    @Test(arguments: Store.available) func aRootCannotMoveInsideItselfOrIntoAnotherRoot(_ store: Store) throws {
        let index = try store.emptyLibrary()
        try index.addRoot(MediaPath("/m"))
        try index.addRoot(MediaPath("/other"))
        let ids = try add([sampleItem("/m/sub/1.mp3", title: "one"), sampleItem("/other/2.mp3", title: "two")], to: index)
        for (target, words) in [("/m/sub", "inside the root /m"), ("/m/sub/deeper", "inside the root /m"),
                                ("/other", "overlaps the library root /other"),
                                ("/other/inner", "overlaps the library root /other")] {
            #expect {
                try index.relocateRoot(MediaPath("/m"), to: MediaPath(target))
            } throws: { error in
                "\(error)".contains(words) && "\(error)".contains(target)
            }
        }
        #expect(try index.roots().sorted() == [MediaPath("/m"), MediaPath("/other")])
        #expect(try index.item(path: MediaPath("/m/sub/1.mp3"))?.persistentID == ids[0])
        #expect(try index.item(path: MediaPath("/other/2.mp3"))?.persistentID == ids[1])
        // A sibling whose name only starts the same (`/m` → `/mx`) is not inside: it moves.
        try index.relocateRoot(MediaPath("/m"), to: MediaPath("/mx"))
        #expect(try index.item(path: MediaPath("/mx/sub/1.mp3"))?.persistentID == ids[0])
    }
}
