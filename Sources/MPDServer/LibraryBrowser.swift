import Foundation
import Library
import MediaModel

/// The library seen as MPD's database: a tree of directories (the roots' folders) holding songs, read
/// from the view (`LibrarySnapshot`) with no store call. With several roots the top is a directory per
/// root (`LibraryURIs`).
struct LibraryBrowser {
    let view: LibrarySnapshot
    let uris: LibraryURIs

    /// A directory's contents: songs (by name) and subdirectories (by name, with their URIs).
    struct Listing {
        var songs: [Int32]
        var directories: [(uri: String, directory: Int32)]
    }

    /// The song a file URI names, or nil.
    func song(_ uri: String) -> Int32? {
        guard !LibraryURIs.normalized(uri).isEmpty, let path = uris.path(of: uri) else { return nil }
        return view.item(path: path)
    }

    /// The directory a URI names ("" is the top); throws `No such directory` for an unknown one. As in
    /// MPD's database, a directory exists when something in it is indexed (MPD prunes empty ones).
    func listing(_ uri: String) throws -> Listing {
        let normalized = LibraryURIs.normalized(uri)
        if normalized.isEmpty, let tops = uris.topDirectories {
            let directories = tops.sorted(by: NameCollation.current.areInIncreasingOrder).compactMap { name -> (String, Int32)? in
                guard let path = uris.path(of: name), let d = view.directory(path: path),
                      !view.directories[Int(d)].subtree.isEmpty else { return nil }
                return (name, d)
            }
            return Listing(songs: [], directories: directories)
        }
        guard let path = uris.path(of: normalized), let d = view.directory(path: path),
              normalized.isEmpty || !view.directories[Int(d)].subtree.isEmpty else { throw MPDError.noSuchDirectory }
        let node = view.directories[Int(d)]
        return Listing(songs: node.items,
                       directories: node.children.map { (Self.join(normalized, view.directories[Int($0)].uriName), $0) })
    }

    /// The view's directory a normalized URI names, when it is one of the tree's (with one root, or below a
    /// root's top directory) and holds something; nil otherwise (`listing(_:)` then answers or throws).
    func directory(_ normalized: String) -> Int32? {
        if normalized.isEmpty && uris.topDirectories != nil { return nil }
        guard let path = uris.path(of: normalized), let d = view.directory(path: path),
              normalized.isEmpty || !view.directories[Int(d)].subtree.isEmpty else { return nil }
        return d
    }

    /// What a normalized URI names in the tree, its path worked out once (`lsinfo` asked `song` and then
    /// `directory`, and turning a URI into a path was a third of a pipelined `lsinfo DIR`).
    enum Entry { case song(Int32), directory(Int32), neither }

    func entry(_ normalized: String) -> Entry {
        if normalized.isEmpty && uris.topDirectories != nil { return .neither }
        guard let path = uris.path(of: normalized) else { return .neither }
        if !normalized.isEmpty, let song = view.item(path: path) { return .song(song) }
        if let d = view.directory(path: path), normalized.isEmpty || !view.directories[Int(d)].subtree.isEmpty {
            return .directory(d)
        }
        return .neither
    }

    /// The sub-listing of a directory found in a listing.
    func listing(_ directory: Int32, uri: String) -> Listing {
        let node = view.directories[Int(directory)]
        return Listing(songs: node.items,
                       directories: node.children.map { (Self.join(uri, view.directories[Int($0)].uriName), $0) })
    }

    /// Every song at or below `uri` (a file or a directory), in database order, as `add` queues them.
    func songs(at uri: String) throws -> [Int32] {
        if let song = song(uri) { return [song] }
        var result: [Int32] = []
        func visit(_ listing: Listing) {
            result += listing.songs
            for (child, d) in listing.directories { visit(self.listing(d, uri: child)) }
        }
        visit(try listing(uri))
        return result
    }

    /// The URI of a directory below `parent` ("" for the top).
    static func join(_ parent: String, _ name: String) -> String {
        let p = LibraryURIs.normalized(parent)
        return p.isEmpty ? name : p + "/" + name
    }

    /// MPD sorts tag values by their bytes (so "Zebra" comes before "apple"); names it collates (`NameCollation`).
    static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// Songs matching `filter` in database order, cut to `window`.
    func find(_ filter: MPDFilter, window: Range<Int>?) throws -> [Int32] {
        let matches = try filter.test(in: view)
        var result: [Int32] = []
        var skipped = 0
        for item in view.walkOrder where matches(item) {
            if let window {
                if skipped < window.lowerBound { skipped += 1; continue }
                if result.count == window.count { break }
            }
            result.append(item)
        }
        return result
    }
}
