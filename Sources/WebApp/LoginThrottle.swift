import Foundation
import Synchronization

/// Slows password guessing at `POST /api/login`: after `freeFailures` failures in a row for a user name,
/// or from a client address, each further try must wait — 2 s after the fifth failure, doubling with each
/// failure after it, at most `longestDelay` — and a try within the wait is refused without the password
/// being checked (429, `Retry-After`). Per name: a guesser with many addresses is slowed on the name it
/// guesses; per address: one guessing many names is slowed too. A success clears both counts.
final class LoginThrottle: Sendable {
    static let freeFailures = 5
    static let longestDelay: TimeInterval = 300
    /// Failures older than this are forgotten ("in a row" ends), and their records dropped.
    static let memory: TimeInterval = 3600

    struct Record: Sendable {
        var failures: Int
        var lastFailure: Date
    }

    private let records = Mutex<[String: Record]>([:])

    private static func keys(name: String, address: String) -> [String] { ["name:" + name, "address:" + address] }

    /// The wait after `failures` failures in a row.
    static func delay(after failures: Int) -> TimeInterval {
        failures < freeFailures ? 0 : min(longestDelay, pow(2, Double(failures - freeFailures + 1)))
    }

    /// Whole seconds `name` from `address` must still wait before trying; 0: it may try now.
    func wait(name: String, address: String, now: Date = Date()) -> Int {
        records.withLock { records in
            Self.keys(name: name, address: address).compactMap { records[$0] }.map { record in
                Int((record.lastFailure.addingTimeInterval(Self.delay(after: record.failures)).timeIntervalSince(now)).rounded(.up))
            }.max().map { max(0, $0) } ?? 0
        }
    }

    func failed(name: String, address: String, now: Date = Date()) {
        records.withLock { records in
            if records.count > 10_000 { records = records.filter { now.timeIntervalSince($0.value.lastFailure) < Self.memory } }
            for key in Self.keys(name: name, address: address) {
                var record = records[key] ?? Record(failures: 0, lastFailure: now)
                if now.timeIntervalSince(record.lastFailure) >= Self.memory { record.failures = 0 }
                record.failures += 1
                record.lastFailure = now
                records[key] = record
            }
        }
    }

    func succeeded(name: String, address: String) {
        records.withLock { records in for key in Self.keys(name: name, address: address) { records[key] = nil } }
    }
}
