import Foundation
import MediaIndex

/// Writes batches, in order, on a thread of its own: SQLite's work then overlaps reading files instead of
/// taking turns with it (on two cores the collector spent about half the scan inside `apply`). At most
/// `depth` batches wait, so memory stays flat; each batch is still one transaction.
final class BatchWriter: @unchecked Sendable {
    private let index: any ScanStore
    private let queue = DispatchQueue(label: "mlib.scan.writer")   // serial: batches commit in order
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var failure: (any Error)?

    init(index: any ScanStore, depth: Int = 2) {
        self.index = index
        slots = DispatchSemaphore(value: depth)
    }

    /// Queues `batch`; waits while `depth` batches are queued. Throws an earlier batch's failure.
    func write(_ batch: [ScanChange], generation: Int64? = nil) throws {
        try perform { index in try index.apply(batch, generation: generation) }
    }

    /// Queues `body` (another write to the index) in order with the batches, as `write` does.
    func perform(_ body: @escaping @Sendable (any ScanStore) throws -> Void) throws {
        try rethrow()
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard lock.withLock({ failure == nil }) else { return }      // after a failure, write no more
            do { try body(index) } catch { lock.withLock { failure = error } }
        }
    }

    /// Waits until every queued batch is written; throws the first failure.
    func drain() throws {
        queue.sync {}
        try rethrow()
    }

    private func rethrow() throws {
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}
