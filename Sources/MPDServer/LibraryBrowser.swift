import Foundation
import MediaIndex
import MediaModel

/// The library seen as MPD's database: a tree of directories (the roots' folders) holding songs. The
/// tree comes from `LibraryCache` (paths and ids); songs are read through the store's protocols
/// (`LibraryReader`) only where their tags are printed, so it works the same over any store.
struct LibraryBrowser {
    let store: any LibraryStore
    let uris: LibraryURIs
    let cache: LibraryCache

    /// A directory of the tree: its subdirectories by name and its songs in path order.
    final class Node {
        var directories: [String: Node] = [:]
        var songs: [LibraryCache.Entry] = []
    }

    /// The song a file URI names, or nil.
    func song(_ uri: String) throws -> MediaItem? {
        guard let path = uris.path(of: uri), !LibraryURIs.normalized(uri).isEmpty else { return nil }
        return try store.item(path: path)
    }

    /// The items of `entries`, in their order (one read of the store).
    func items(_ entries: [LibraryCache.Entry]) throws -> [MediaItem] {
        guard !entries.isEmpty else { return [] }
        return try store.items(ids: entries.map(\.id))
    }

    /// Every song at or below `uri` (a file or a directory), in database order, as `add` queues them.
    func songs(at uri: String) throws -> [MediaItem] {
        if let song = try song(uri) { return [song] }
        return try items(entries(at: uri))
    }

    /// The entries at or below a directory URI in MPD's database order: a directory's songs, then its
    /// subdirectories (by name), recursively.
    func entries(at uri: String) throws -> [LibraryCache.Entry] {
        let tree = try tree(at: uri)
        var result: [LibraryCache.Entry] = []
        func walk(_ node: Node) {
            result += node.songs
            for name in node.directories.keys.sorted(by: Self.byteOrder) { walk(node.directories[name]!) }
        }
        walk(tree)
        return result
    }

    /// The tree below a directory URI ("" is the top); throws `No such directory` for an unknown one.
    func tree(at uri: String) throws -> Node {
        let normalized = LibraryURIs.normalized(uri)
        let root = Node()
        if normalized.isEmpty, let tops = uris.topDirectories {
            // Several roots: each is a directory at the top.
            for name in tops { root.directories[name] = try tree(at: name) }
            return root
        }
        guard let directory = uris.path(of: normalized) else { throw MPDError.noSuchDirectory }
        let prefixLength = directory.bytes.count + (directory.bytes.last == UInt8(ascii: "/") ? 0 : 1)
        let entries = cache.entries(under: directory)
        // As in MPD's database, a directory exists when something in it is indexed (MPD prunes empty ones).
        if entries.isEmpty && !normalized.isEmpty { throw MPDError.noSuchDirectory }
        for entry in entries {
            let parts = entry.path.bytes[prefixLength...].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
            var node = root
            for part in parts.dropLast() {
                let name = String(decoding: part, as: UTF8.self)
                if let child = node.directories[name] { node = child } else {
                    let child = Node()
                    node.directories[name] = child
                    node = child
                }
            }
            node.songs.append(entry)
        }
        // Songs by name within a directory (path order within one directory is name order).
        return root
    }

    /// The URI of a directory below `parent` ("" for the top).
    static func join(_ parent: String, _ name: String) -> String {
        let p = LibraryURIs.normalized(parent)
        return p.isEmpty ? name : p + "/" + name
    }

    /// MPD sorts names by their bytes (so "Zebra" comes before "apple").
    static func byteOrder(_ a: String, _ b: String) -> Bool { Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) }

    /// The directory's modification time, as MPD shows for `directory:` entries.
    func modified(directoryURI uri: String) -> Date? {
        guard let path = uris.path(of: uri) else { return nil }
        return (try? FileManager.default.attributesOfItem(atPath: path.string))?[.modificationDate] as? Date
    }

    /// MPD's database order: in each directory its songs (by name), then its subdirectories (by name).
    static func walkOrder(_ a: MediaPath, _ b: MediaPath) -> Bool {
        let x = a.bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        let y = b.bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for i in 0..<min(x.count, y.count) where x[i] != y[i] {
            let xIsFile = i == x.count - 1, yIsFile = i == y.count - 1
            if xIsFile != yIsFile { return xIsFile }
            return x[i].lexicographicallyPrecedes(y[i])
        }
        return x.count < y.count
    }

    /// Songs matching `filter`, sorted by `sort` (an MPD tag, `-` for descending) and cut to `window`;
    /// without `sort`, in database order.
    func find(_ filter: MediaPredicate, sort: String?, window: Range<Int>?) throws -> [MediaItem] {
        guard sort != nil else {
            let all = try store.items(MediaQuery(filter: filter, sort: [MediaSortDescriptor(.path)]))
                .sorted { Self.walkOrder($0.path, $1.path) }
            guard let window else { return all }
            return Array(all[min(window.lowerBound, all.count)..<min(window.upperBound, all.count)])
        }
        var descriptors: [MediaSortDescriptor] = [MediaSortDescriptor(.path)]
        if let sort {
            let descending = sort.hasPrefix("-")
            let name = descending ? String(sort.dropFirst()) : sort
            let property: MediaProperty
            if name.lowercased() == "last-modified" { property = .modificationDate } else {
                guard let tag = MPDTag.named(name), let p = tag.property else { throw MPDError.badArgument("Unknown sort tag") }
                property = p
            }
            descriptors.insert(MediaSortDescriptor(property, ascending: !descending), at: 0)
        }
        var query = MediaQuery(filter: filter, sort: descriptors)
        if let window {
            query.offset = window.lowerBound
            query.limit = window.count
        }
        return try store.items(query)
    }
}
