import Foundation
import MediaIndex
import MediaModel

/// An action on files refused because some of its items are files of another host of a shared library:
/// this host has its own, different file at that path or none (issue 38: `mlib tag` on host A wrote A's
/// file for B's item; `mlib play` played A's file and counted the play on B's item).
public struct OtherHostItems: Error, CustomStringConvertible, Sendable {
    public var action: String
    /// Each refused item's path and its host's name.
    public var items: [(path: MediaPath, host: String)]
    public var thisHost: String
    public var total: Int

    public var description: String {
        let first = items[0]
        let which = total == 1 ? "the item" : "\(items.count) of the \(total) items"
        return """
            cannot \(action): \(which) \(items.count == 1 ? "is a file" : "are files") of another host (\(first.path.string) is on \
            '\(first.host)'); this host ('\(thisHost)') may have another file at that path or none. Run it on that host, \
            or narrow the query to this host's roots (mlib root list)
            """
    }
}

extension Library {
    /// Throws `OtherHostItems` when any of `items` is another host's file (never on SQLite, whose library
    /// is one host's). One query, whatever the number of items.
    public func requireThisHost(_ items: [MediaItem], doing action: String) throws {
        guard let sql = store as? SQLStore, sql.thisHostName != nil, !items.isEmpty else { return }
        let others = try sql.itemsOfOtherHosts(ids: items.map(\.persistentID))
        guard !others.isEmpty else { return }
        let refused = items.compactMap { item in others[item.persistentID].map { (path: item.path, host: $0) } }
        throw OtherHostItems(action: action, items: refused, thisHost: sql.thisHostName ?? "", total: items.count)
    }

    /// `requireThisHost(_:doing:)` for the items `query` selects, read only where the store holds several
    /// hosts' items: a library of one host (SQLite) is not read for it at all.
    public func requireThisHost(matching query: MediaQuery, doing action: String) throws {
        guard let sql = store as? SQLStore, sql.thisHostName != nil else { return }
        try requireThisHost(try store.items(query), doing: action)
    }

    /// Whether the file of the item with persistent id `id` is one this host reaches: its own or a share's
    /// it joined. Always true where the store lists only such items (a library of one host; a server's
    /// store under `readThisHostOnly`). The Subsonic server under `mlib serve --all-hosts`, which lists every
    /// host's items (the MPD side never does), asks before it opens a file: at another host's path this host has another file or none (issue 38: beta's
    /// `stream` of alpha's song sent beta's own file at that path under alpha's title).
    public func reachesFile(ofItem id: Int64) throws -> Bool {
        guard let sql = store as? SQLStore, sql.thisHostName != nil, !sql.readsThisHostOnly else { return true }
        return try sql.itemsOfOtherHosts(ids: [id]).isEmpty
    }

    /// Limits the store's reads to this host's items and those of the shares mounted here
    /// (`SQLStore.readsThisHostOnly`, `SharedRoot.isMounted`, asked now and at each refresh of a view,
    /// `SQLStore.recheckMountedShares`), for a server that can play only
    /// the files it reaches; `false` lists every host's (the Subsonic side of `mlib serve --all-hosts`; the MPD
    /// side keeps its own view of this host's items).
    public func readThisHostOnly(_ on: Bool = true) {
        guard let sql = store as? SQLStore else { return }
        if on { sql.readMountedShares(of: (try? sql.sharedRoots()) ?? []) }
        sql.readsThisHostOnly = on
    }
}
