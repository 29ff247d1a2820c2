import Foundation

/// With `MLIB_VIEW_LOG` set, what the in-memory view and the structures fronts derive from it do is said on
/// standard error, one line each ("mlib: view …"): each build and refresh of the view (patched, refreshed
/// or rebuilt), each API catalog derived or kept, MPD song blocks kept. Benchmarks and tests count the work
/// with it (`Benchmarks/view-bench.sh`, `OneChangeWorkTests`).
public enum ViewLog {
    public static let isOn = ProcessInfo.processInfo.environment["MLIB_VIEW_LOG"] != nil

    public static func write(_ text: @autoclosure () -> String) {
        guard isOn else { return }
        FileHandle.standardError.write(Data("mlib: view \(text())\n".utf8))
    }

    /// Milliseconds since `start`, as the lines print them.
    public static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return String(format: "%.1f ms", seconds * 1_000)
    }
}
