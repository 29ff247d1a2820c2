/// A snapshot's per-item value numbers (`count` rows of `width` cells), kept in chunks of 4,096 rows: a
/// patch (`SnapshotPatch`) that writes a few items copies the chunks it writes (a few hundred KB), not the
/// table, which at 1,000,000 items and both servers' slots is ~300 MB (issue 44: a rating must cost the
/// server milliseconds). Chunks are shared between a snapshot and its patched successor.
struct CellTable: Sendable {
    static let chunkShift = 12
    static let chunkRows = 1 << chunkShift

    let width: Int
    let count: Int
    private var chunks: [[UInt32]]

    /// `count` rows, row `i` given by `row(i)` (exactly `width` cells).
    init(width: Int, count: Int, row: (Int) -> ArraySlice<UInt32>) {
        self.width = width
        self.count = count
        chunks = stride(from: 0, to: count, by: Self.chunkRows).map { start in
            var chunk = [UInt32]()
            chunk.reserveCapacity(min(Self.chunkRows, count - start) * width)
            for i in start..<min(start + Self.chunkRows, count) { chunk += row(i) }
            return chunk
        }
    }

    /// `flat` (count × width cells, row after row) in chunks.
    init(width: Int, flat: [UInt32]) {
        let count = width == 0 ? 0 : flat.count / width
        self.init(width: width, count: count) { flat[$0 * width..<($0 + 1) * width] }
    }

    @inline(__always) subscript(row: Int, column: Int) -> UInt32 {
        get { chunks[row >> Self.chunkShift][(row & (Self.chunkRows - 1)) * width + column] }
        set { chunks[row >> Self.chunkShift][(row & (Self.chunkRows - 1)) * width + column] = newValue }
    }

    /// Row `i`'s cells.
    func row(_ i: Int) -> ArraySlice<UInt32> {
        let start = (i & (Self.chunkRows - 1)) * width
        return chunks[i >> Self.chunkShift][start..<start + width]
    }

    /// Column `column` of every row, in row order.
    func forEach(inColumn column: Int, _ body: (UInt32) -> Void) {
        guard width > 0 else { return }
        for chunk in chunks {
            for i in Swift.stride(from: column, to: chunk.count, by: width) { body(chunk[i]) }
        }
    }
}
