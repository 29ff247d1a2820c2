import Foundation
import MediaModel

/// The directories events touched since the last scan, and the files still being written, with the
/// timing that decides when to scan (`WatchOptions`).
struct ChangeSet {
    private(set) var directories: [MediaPath: Date] = [:]
    private(set) var lastEvent = Date.distantPast
    /// Files created or modified and not closed yet, with their last event.
    private var writing: [MediaPath: Date] = [:]

    var isEmpty: Bool { directories.isEmpty }

    mutating func touch(_ directory: MediaPath, at now: Date) {
        if directories[directory] == nil { directories[directory] = now }
        lastEvent = max(lastEvent, now)
    }

    mutating func writing(_ file: MediaPath, at now: Date) { writing[file] = now }
    mutating func closed(_ file: MediaPath) { writing[file] = nil }

    /// When `take` will next return something (nil: nothing pending).
    func nextDue(_ options: WatchOptions) -> Date? {
        guard let oldest = directories.values.min() else { return nil }
        var due = min(lastEvent.addingTimeInterval(options.debounce), oldest.addingTimeInterval(options.maxDelay))
        if directories.keys.allSatisfy(isBusy), let expiry = writing.values.min()?.addingTimeInterval(options.stableAfter) {
            due = max(due, expiry)
        }
        return due
    }

    /// The directories ready to scan at `now` (removed from the set): none until events paused for the
    /// debounce time (or the oldest waited `maxDelay`); then all but those holding a file still written.
    mutating func take(at now: Date, _ options: WatchOptions) -> [MediaPath] {
        writing = writing.filter { now.timeIntervalSince($0.value) < options.stableAfter }
        guard let oldest = directories.values.min(),
              now.timeIntervalSince(lastEvent) >= options.debounce || now.timeIntervalSince(oldest) >= options.maxDelay
        else { return [] }
        let ready = directories.keys.filter { !isBusy($0) }
        for directory in ready { directories[directory] = nil }
        return ready
    }

    private func isBusy(_ directory: MediaPath) -> Bool {
        writing.keys.contains { $0.directory == directory || $0.hasPrefix(directory: directory) }
    }
}
