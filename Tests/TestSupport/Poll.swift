import Foundation

/// Waiting for something another process or thread does: ask until it holds or a deadline passes, instead
/// of sleeping a guessed time and asserting (which fails on a loaded machine and wastes time on an idle one).
public enum Poll {
    /// Evaluates `condition` every `interval` seconds until it is true (returns true) or `timeout` seconds
    /// have passed (returns false, after one last look).
    @discardableResult
    public static func until(timeout: Double = 10, interval: Double = 0.05, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if try condition() { return true }
            if Date() >= deadline { return false }
            usleep(useconds_t(interval * 1_000_000))
        }
    }

    /// The same, from async code (the task sleeps, the thread is free).
    @discardableResult
    public static func until(timeout: Double = 10, interval: Double = 0.05, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if try await condition() { return true }
            if Date() >= deadline { return false }
            try? await Task.sleep(for: .seconds(interval))
        }
    }

    /// The last value `produce` returned, once `accept` holds for it or `timeout` has passed: for a check
    /// whose failure message shows what was seen last.
    public static func value<T>(timeout: Double = 10, interval: Double = 0.05, _ produce: () throws -> T,
                                until accept: (T) -> Bool) rethrows -> T {
        var last = try produce()
        let deadline = Date().addingTimeInterval(timeout)
        while !accept(last) && Date() < deadline {
            usleep(useconds_t(interval * 1_000_000))
            last = try produce()
        }
        return last
    }
}
