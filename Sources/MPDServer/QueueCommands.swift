import MediaModel
import Playback

/// The queue (MPD's "current playlist"): the player's queue plus the ids and versions in `QueueIDs`.
/// Every edit goes to both, here, so they stay in step.
extension ServerCore {
    func insert(_ items: [MediaItem], at position: Int?) throws -> [Int] {
        let count = queueIDs.count
        let at = position ?? count
        guard at >= 0, at <= count else { throw MPDError.badSongIndex }
        player.append(items)
        guard at != count else { return queueIDs.insert(count: items.count, at: count) }
        // MPD appends and then moves, raising the queue version twice: so does this, for plchanges.
        let ids = queueIDs.insert(count: items.count, at: count)
        queueIDs.commit()
        for k in items.indices {
            player.moveItem(from: count + k, to: at + k)
            queueIDs.move(from: count + k, to: at + k)
        }
        return ids
    }

    func removeEntry(at position: Int) {
        priorities[queueIDs.ids[position]] = nil
        player.removeItem(at: position)
        queueIDs.remove(at: position)
    }

    func moveEntry(from: Int, to: Int) {
        guard from != to else { return }
        player.moveItem(from: from, to: to)
        queueIDs.move(from: from, to: to)
    }

    /// `prio`: shown in the entry, and given to the player, which plays higher priorities first in
    /// random mode. The queue version goes up even when nothing changes (as mpd 0.23's does); only a
    /// changed entry is listed by `plchanges`.
    func setPriority(_ priority: Int, at position: Int) {
        let id = queueIDs.ids[position]
        queueIDs.markChanged()
        guard (priorities[id] ?? 0) != priority else { return }
        priorities[id] = priority == 0 ? nil : priority
        player.setPriority(priority, forItemAt: position)
        queueIDs.touch(position: position)
    }

    func clearQueue() {
        player.setQueue(with: [])
        queueIDs.removeAll()
        priorities = [:]
    }
}

enum QueueCommands {
    // MARK: Adding

    /// `add URI [POSITION]`: a file or a whole directory (recursively, in database order).
    static func add(_ c: CommandContext, _ out: inout Response) throws {
        let browser = c.core.browser()
        let ids = try browser.songs(at: c.arguments[0]).map { browser.view.ids[Int($0)] }
        guard !ids.isEmpty || LibraryURIs.normalized(c.arguments[0]).isEmpty else { throw MPDError.noSuchDirectory }
        let store = c.core.store
        // The queue holds whole items (the player reads their paths and gains): read off the loop.
        c.offLoop {
            let items = try store.items(ids: ids)
            return { c, _ in _ = try c.core.insert(items, at: try c.arguments.dropFirst().first.map(position(c))) }
        }
    }

    /// `addid URI [POSITION]`: one file; answers its id.
    static func addid(_ c: CommandContext, _ out: inout Response) throws {
        let browser = c.core.browser()
        guard let song = browser.song(c.arguments[0]) else { throw MPDError(.noExist, "No such song") }
        let id = browser.view.ids[Int(song)], store = c.core.store, arguments = c.arguments
        c.offLoop {
            guard let item = try store.item(id: id) else { throw MPDError(.noExist, "No such song") }
            return { c, out in
                let ids = try c.core.insert([item], at: try arguments.dropFirst().first.map(position(c)))
                out.field("Id", ids[0])
            }
        }
    }

    /// A position argument: absolute, or `+N`/`-N` relative to the current song (MPD 0.23).
    static func position(_ c: CommandContext) -> (String) throws -> Int {
        { text in
            if text.hasPrefix("+") || text.hasPrefix("-") {
                guard let current = c.core.player.indexOfNowPlayingItem else { throw MPDError.badArgument("No current song") }
                let offset = try Arguments.int(String(text.dropFirst()))
                return text.hasPrefix("+") ? current + 1 + offset : current - offset
            }
            return try Arguments.unsigned(text)
        }
    }

    // MARK: Removing and moving

    static func clear(_ c: CommandContext, _ out: inout Response) throws { c.core.clearQueue() }

    static func delete(_ c: CommandContext, _ out: inout Response) throws {
        let range = try Arguments.queueRange(c.arguments[0], count: c.core.queueIDs.count)
        guard !range.isEmpty, range.upperBound <= c.core.queueIDs.count else { throw MPDError.badSongIndex }
        for position in range.reversed() { c.core.removeEntry(at: position) }
    }

    static func deleteid(_ c: CommandContext, _ out: inout Response) throws {
        guard let position = c.core.queueIDs.position(ofID: try Arguments.unsigned(c.arguments[0])) else { throw MPDError.noSuchSong }
        c.core.removeEntry(at: position)
    }

    /// `move FROM[:TO] TO`: the entries keep their order and start at TO.
    static func move(_ c: CommandContext, _ out: inout Response) throws {
        let count = c.core.queueIDs.count
        let range = try Arguments.queueRange(c.arguments[0], count: count)
        let to = try Arguments.int(c.arguments[1])
        guard !range.isEmpty, to >= 0, to + range.count <= count else { throw MPDError.badSongIndex }
        move(c.core, range, to: to)
    }

    static func moveid(_ c: CommandContext, _ out: inout Response) throws {
        guard let from = c.core.queueIDs.position(ofID: try Arguments.unsigned(c.arguments[0])) else { throw MPDError.noSuchSong }
        let to = try Arguments.int(c.arguments[1])
        guard to >= 0, to < c.core.queueIDs.count else { throw MPDError.badSongIndex }
        c.core.moveEntry(from: from, to: to)
    }

    private static func move(_ core: ServerCore, _ range: Range<Int>, to: Int) {
        if to < range.lowerBound {
            for (k, from) in range.enumerated() { core.moveEntry(from: from, to: to + k) }
        } else {
            for _ in range { core.moveEntry(from: range.lowerBound, to: to + range.count - 1) }
        }
    }

    static func swap(_ c: CommandContext, _ out: inout Response) throws {
        let count = c.core.queueIDs.count
        let a = try Arguments.unsigned(c.arguments[0]), b = try Arguments.unsigned(c.arguments[1])
        guard a < count, b < count else { throw MPDError.badSongIndex }
        swap(c.core, a, b)
    }

    static func swapid(_ c: CommandContext, _ out: inout Response) throws {
        guard let a = c.core.queueIDs.position(ofID: try Arguments.unsigned(c.arguments[0])),
              let b = c.core.queueIDs.position(ofID: try Arguments.unsigned(c.arguments[1])) else { throw MPDError.noSuchSong }
        swap(c.core, a, b)
    }

    private static func swap(_ core: ServerCore, _ a: Int, _ b: Int) {
        let (low, high) = (min(a, b), max(a, b))
        guard low != high else { return }
        core.moveEntry(from: low, to: high)
        core.moveEntry(from: high - 1, to: low)
    }

    /// `shuffle [START:END]`: a random order of those entries (the playing one keeps playing).
    static func shuffle(_ c: CommandContext, _ out: inout Response) throws {
        let count = c.core.queueIDs.count
        let range = try c.arguments.first.map { try Arguments.queueRange($0, count: count) } ?? 0..<count
        guard range.count > 1 else { return }
        // Fisher–Yates done with moves, so the player's now-playing entry follows its item.
        for i in range.dropLast() {
            let j = Int.random(in: i..<range.upperBound)
            if j != i { c.core.moveEntry(from: j, to: i) }
        }
    }

    static func prio(_ c: CommandContext, _ out: inout Response) throws {
        let priority = try Arguments.unsigned(c.arguments[0])
        guard priority <= 255 else { throw MPDError.badArgument("Priority out of range") }
        for text in c.arguments.dropFirst() {
            for position in try Arguments.queueRange(text, count: c.core.queueIDs.count) {
                c.core.setPriority(priority, at: position)
            }
        }
    }

    static func prioid(_ c: CommandContext, _ out: inout Response) throws {
        let priority = try Arguments.unsigned(c.arguments[0])
        guard priority <= 255 else { throw MPDError.badArgument("Priority out of range") }
        for text in c.arguments.dropFirst() {
            guard let position = c.core.queueIDs.position(ofID: try Arguments.unsigned(text)) else { throw MPDError.noSuchSong }
            c.core.setPriority(priority, at: position)
        }
    }

    /// `addtagid ID TAG VALUE` and `cleartagid ID [TAG]`: mpd edits the tags of queued streams only; every
    /// song mlib queues is a local file, so the answer is mpd's for one (after its own argument checks).
    static func addtagid(_ c: CommandContext, _ out: inout Response) throws {
        let id = try Arguments.unsigned(c.arguments[0])
        guard MPDTag.named(c.arguments[1]) != nil else { throw MPDError.badArgument("Unknown tag type: \(c.arguments[1])") }
        try refuseTagEdit(c, id: id)
    }

    static func cleartagid(_ c: CommandContext, _ out: inout Response) throws {
        let id = try Arguments.unsigned(c.arguments[0])
        if c.arguments.count > 1, MPDTag.named(c.arguments[1]) == nil {
            throw MPDError.badArgument("Unknown tag type: \(c.arguments[1])")
        }
        try refuseTagEdit(c, id: id)
    }

    private static func refuseTagEdit(_ c: CommandContext, id: Int) throws {
        guard c.core.queueIDs.position(ofID: id) != nil else { throw MPDError.noSuchSong }
        throw MPDError(.permission, "Cannot edit tags of local file")
    }

    // MARK: Reading

    static func writeEntry(_ c: CommandContext, position: Int, item: MediaItem? = nil, to out: inout Response) {
        let item = item ?? c.core.player.queue[position]
        c.songs.write(item, to: &out)
        out.field("Pos", position)
        let id = c.core.queueIDs.ids[position]
        out.field("Id", id)
        if let priority = c.core.priorities[id] { out.field("Prio", priority) }
    }

    static func playlistinfo(_ c: CommandContext, _ out: inout Response) throws {
        let queue = c.core.player.queue
        var range = queue.indices
        if let text = c.arguments.first {
            range = try Arguments.range(text, count: queue.count)
            if c.arguments[0].contains(":") {
                range = range.clamped(to: queue.indices)
            } else {
                guard range.upperBound <= queue.count else { throw MPDError.badSongIndex }
            }
        }
        for position in range { writeEntry(c, position: position, item: queue[position], to: &out) }
    }

    static func playlistid(_ c: CommandContext, _ out: inout Response) throws {
        let queue = c.core.player.queue
        if let text = c.arguments.first {
            guard let position = c.core.queueIDs.position(ofID: try Arguments.unsigned(text)) else { throw MPDError.noSuchSong }
            return writeEntry(c, position: position, item: queue[position], to: &out)
        }
        for position in queue.indices { writeEntry(c, position: position, item: queue[position], to: &out) }
    }

    /// `playlist` (deprecated): `POS:file: URI` per song, as mpd 0.23 prints it (`queue_print_uris`).
    static func playlist(_ c: CommandContext, _ out: inout Response) throws {
        for (position, item) in c.core.player.queue.enumerated() {
            out.line("\(position):file: \(c.core.uris.uri(of: item.path) ?? item.path.string)")
        }
    }

    static func plchanges(_ c: CommandContext, _ out: inout Response) throws {
        let queue = c.core.player.queue
        for position in try changed(c) { writeEntry(c, position: position, item: queue[position], to: &out) }
    }

    static func plchangesposid(_ c: CommandContext, _ out: inout Response) throws {
        for position in try changed(c) {
            out.field("cpos", position)
            out.field("Id", c.core.queueIDs.ids[position])
        }
    }

    private static func changed(_ c: CommandContext) throws -> [Int] {
        guard let version = UInt32(c.arguments[0]) else { throw MPDError.badArgument("Integer expected: \(c.arguments[0])") }
        var positions = c.core.queueIDs.positions(changedSince: version)
        if c.arguments.count > 1 {
            let range = try Arguments.range(c.arguments[1], count: c.core.queueIDs.count)
            positions = positions.filter(range.contains)
        }
        return positions
    }

    static func playlistfind(_ c: CommandContext, _ out: inout Response) throws { try filterQueue(c, .exact, &out) }
    static func playlistsearch(_ c: CommandContext, _ out: inout Response) throws { try filterQueue(c, .search, &out) }

    /// The queue filtered in memory by the same predicate the database commands compile to SQL.
    private static func filterQueue(_ c: CommandContext, _ mode: FilterCompiler.Mode, _ out: inout Response) throws {
        let filter = try FilterCompiler(mode: mode, uris: c.core.uris).compile(c.arguments)
        let matches: (MediaItem) -> Bool
        do { matches = try filter.test() } catch { throw MPDError.badArgument("\(error)") }
        for (position, item) in c.core.player.queue.enumerated() where matches(item) {
            writeEntry(c, position: position, item: item, to: &out)
        }
    }
}
