import Library

/// The lines `listallinfo` writes for each song of one view (`SongWriter.write(_:of:to:)` with every tag
/// on), kept once written: the next walk copies a song's block instead of making its ~13 lines again.
///
/// Why: at 100,040 songs a `listallinfo` cost the server ~120 ms of CPU (retains and releases of the
/// view's tables and the strings per field were a third of the profile under the 10-client library
/// load), on 2 cores shared with the clients that read the 28 MB. Blocks are made the first time a walk
/// writes a song (no whole build at once: that would hold the loop ~120 ms) and kept in 1 MiB pages,
/// indexed by 8 bytes per song: about the size of one `listallinfo` answer (28 MB at 100,040 songs),
/// held while the view is the current one. Used on the core's loop only.
///
/// At most `pageBudget` pages (128 MiB): past it, blocks are made each time and not kept. At 1,000,000
/// songs the blocks were 253 MB, and the server's RSS with every cache warm 1,056 MB (issue 44: < 1 GB);
/// up to ~460,000 songs they all fit.
final class SongLineCache: @unchecked Sendable {
    let view: LibrarySnapshot
    private let writer: SongWriter
    private var pages: [[UInt8]] = []
    /// Per item: its block's page (24 bits), offset (20) and length (20); 0 while not made.
    private var entries: [UInt64]
    private let pageBudget: Int
    static let pageSize = 1 << 20
    static let defaultPageBudget = 128

    init(view: LibrarySnapshot, pageBudget: Int = SongLineCache.defaultPageBudget) {
        self.view = view
        // The URIs from the view's own roots: the block is a function of the view alone.
        writer = SongWriter(uris: LibraryURIs(roots: view.roots))
        entries = Array(repeating: 0, count: view.count)
        self.pageBudget = pageBudget
    }

    /// The blocks of `previous` for `view`, patched from `previous.view` (`lineage`): every block kept but
    /// those of the items written, made again at their next walk (a play or a rating re-makes one block,
    /// not the library's).
    init(view: LibrarySnapshot, carrying previous: SongLineCache, except lineage: Lineage) {
        precondition(lineage.follows(previous.view), "the blocks of another view")
        self.view = view
        writer = previous.writer
        pageBudget = previous.pageBudget
        pages = previous.pages
        entries = previous.entries
        for item in lineage.items { entries[Int(item)] = 0 }
    }

    /// How many songs have a block kept.
    var keptCount: Int { entries.lazy.filter { $0 != 0 }.count }

    /// Writes `item`'s lines: from its block when made, else made now and kept.
    func write(_ item: Int32, to out: inout Response) {
        let entry = entries[Int(item)]
        if entry != 0 {
            let page = Int(entry >> 40), offset = Int(entry >> 20 & 0xFFFFF), length = Int(entry & 0xFFFFF)
            pages[page].withUnsafeBufferPointer { out.append(UnsafeBufferPointer(rebasing: $0[offset..<offset + length])) }
            return
        }
        var lines = Response()
        writer.write(item, of: view, to: &lines)
        out.append(lines.bytes)
        keep(lines.bytes, for: item)
    }

    private func keep(_ block: [UInt8], for item: Int32) {
        // A block that fits no page (a song with megabytes of tags) is made each time.
        guard !block.isEmpty, block.count < Self.pageSize else { return }
        if pages.isEmpty || pages[pages.count - 1].count + block.count > Self.pageSize {
            guard pages.count < pageBudget else { return }   // the budget is spent: this block is made each time
            var page: [UInt8] = []
            page.reserveCapacity(Self.pageSize)
            pages.append(page)
        }
        let page = pages.count - 1
        let offset = pages[page].count
        pages[page].append(contentsOf: block)
        entries[Int(item)] = UInt64(page) << 40 | UInt64(offset) << 20 | UInt64(block.count)
    }
}
