#if canImport(Glibc)
import Glibc
#endif
import MediaModel

extension MediaProbe {
    /// The number of probes to run at once: one per core (probing is CPU-bound once the page cache is warm).
    public static var defaultConcurrency: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Probes `paths` with at most `concurrency` files in flight and hands each result to `body` in input
    /// order, as soon as it and every earlier one are done. Each probe opens and closes its own C handles
    /// inside its task; only `Sendable` results cross tasks.
    public static func probeInOrder(_ paths: [MediaPath], concurrency: Int = defaultConcurrency,
                                    _ body: (Int, Result<ProbeResult, ProbeError>) throws -> Void) async rethrows {
        try await withThrowingTaskGroup(of: (Int, Result<ProbeResult, ProbeError>).self) { group in
            var next = 0
            var pending: [Int: Result<ProbeResult, ProbeError>] = [:]
            var emitted = 0
            func launch() {
                guard next < paths.count else { return }
                let index = next, path = paths[index]
                group.addTask { (index, Result { () throws(ProbeError) in try probe(path) }) }
                next += 1
            }
            for _ in 0..<max(1, concurrency) { launch() }
            while let (index, result) = try await group.next() {
                pending[index] = result
                while let ready = pending.removeValue(forKey: emitted) {
                    try body(emitted, ready)
                    emitted += 1
                }
                launch()
            }
        }
    }
}
