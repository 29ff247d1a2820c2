import EarlySignals
import Foundation

/// Signals (SIGINT and SIGTERM by default) caught from the moment this is made, not acted on as signals, so
/// that `mlib serve` stops cleanly instead of dying mid-write and `mlib play` finishes its file. `Serve.run`
/// makes it before it starts a server, so a signal sent as soon as the "serving" line is out is never lost.
///
/// The handler is C (`mlib_signal_pipe_install`: it writes the signal's number to a pipe, read here by a
/// Dispatch read source), not a Dispatch signal source: on Linux a signal source needs the signal blocked in
/// the thread the kernel delivers it to, and with the signal set to SIG_IGN a SIGTERM delivered to the main
/// thread was discarded, so the server served on and a test's `stop()` waited forever.
final class TerminationSignals: @unchecked Sendable {   // DispatchSource is thread-safe; the rest is immutable
    private let signals: [Int32]
    private let source: any DispatchSourceRead
    private let stream: AsyncStream<Int32>

    init(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        self.signals = signals
        let descriptor = signals.map { mlib_signal_pipe_install($0) }.last ?? -1
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .global())
        source.setEventHandler {
            var number: UInt8 = 0
            while read(descriptor, &number, 1) == 1 { continuation.yield(Int32(number)) }
        }
        source.resume()
    }

    /// Returns at the first signal (at once if one came already), and gives the signals back their default
    /// action (a second Ctrl-C while the server closes ends it at once).
    func wait() async {
        for await _ in stream { break }
        cancel()
    }

    /// Stops catching: the signals' default actions again.
    func cancel() {
        source.cancel()
        signals.forEach { mlib_signal_pipe_remove($0) }
    }
}
