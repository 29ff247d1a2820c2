import Dispatch
import Foundation
import Glibc
import MediaModel
import MediaProbe

/// What an edit of one file changes (or changed).
public struct TagFileReport: Sendable {
    public struct FieldChange: Sendable, Equatable {
        public var key: String
        public var old: [String]
        public var new: [String]
    }
    /// `notWritten`: the run was stopped (`shouldStop`) before this file's group; the file is unchanged.
    public enum Outcome: String, Sendable { case unchanged, planned, inPlace = "in place", rewritten, failed, notWritten = "not written" }

    /// The file's path for display (a name that is not UTF-8 shows U+FFFD); `file` is the exact one.
    public var path: String
    /// The file as the kernel names it (what was opened and written).
    public var file: MediaPath
    public var changes: [FieldChange] = []
    public var picturesBefore = 0
    public var picturesAfter = 0
    /// Keys the format cannot store (TagLib's setProperties refused them): reported, not written.
    public var unsupported: [String] = []
    public var outcome: Outcome = .unchanged
    public var bytesWritten = 0
    public var error: String?
    /// The file as the write's check read it right after writing it (in place, or the copy renamed over
    /// it), as a scan reads it: what
    /// `Library.writeTags` hands the index refresh so that the file is not read a third time (and then
    /// clears). Nil when the check read it otherwise or not at all.
    public var probed: ProbedFile?

    public var changesSomething: Bool { !changes.isEmpty || picturesBefore != picturesAfter }

    public init(file: MediaPath) {
        self.file = file
        path = file.string
    }
}

/// A tag edit: field changes, pictures and a rating.
public struct TagEdit: Sendable {
    public var changes: [TagChange]
    /// Replaces every picture with this one (as the front cover).
    public var picture: (data: [UInt8], mime: String)?
    public var removePictures: Bool
    /// A rating (1–5 stars) to write in the format's rating tag (ID3v2 POPM, FMPS_RATING, MP4 `rate`, ASF
    /// WM/SharedUserRating); nil or 0 writes none and leaves a rating the file has as it is.
    public var rating: Int?

    public init(changes: [TagChange], picture: (data: [UInt8], mime: String)? = nil, removePictures: Bool = false,
                rating: Int? = nil) {
        self.changes = changes
        self.picture = picture
        self.removePictures = removePictures
        self.rating = rating
    }

    /// The MIME type of an image from its first bytes.
    public static func imageType(_ data: [UInt8]) -> String? {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if data.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        return nil
    }
}

/// Edits files' tags through TagLib, safely (`SafeFileWriter`): the library's one tag writer.
public struct TagWriter: Sendable {
    public let journal: TagJournal
    /// Whether a write stands without the check (`WriteCheck`) that it changed only the fields asked, the
    /// pictures and rating asked, and not the audio. Off by default; `mlib tag --force` turns it on, for a
    /// difference the user has read and accepts (a damaged file whose length the rewrite corrects).
    public let force: Bool
    /// Whether an index refresh follows the writes (`Library.writeTags`): then the check's read after each
    /// write also makes the file's content identity (`TagFileReport.probed`), which the refresh stores
    /// instead of reading the file again. Off for files written alone (`mlib tag --files`): hashing the
    /// head and tail windows for nobody.
    public var readsForRefresh = false
    /// Tests only: called with each file written in place once its journal entry is durable, right
    /// before the writer's last check of the file and its write (`SafeFileWriter.Group`).
    var beforeInPlaceWrite: (@Sendable (MediaPath) -> Void)?

    public init(journal: TagJournal = TagJournal(directory: TagJournal.defaultDirectory()), force: Bool = false) {
        self.journal = journal
        self.force = force
    }

    /// Whether mlib can write this file's tags (by its name).
    public static func canWrite(_ path: MediaPath) -> Bool {
        TagFile.format(forExtension: path.fileExtension) != nil
    }

    /// What `edit` changes in `file`; written only when `write` is true. Never throws: a failure is the
    /// report's `error` (the file untouched). Files are opened, written and renamed by their bytes (a name
    /// that is not UTF-8 too).
    public func edit(_ file: MediaPath, _ edit: TagEdit, write: Bool) -> TagFileReport {
        write ? self.edit([(file, edit)])[0] : prepare(file, edit, render: false).report
    }

    /// `edit` of a UTF-8 path.
    public func edit(_ path: String, _ edit: TagEdit, write: Bool) -> TagFileReport {
        self.edit(MediaPath(path), edit, write: write)
    }

    /// `edit(jobs)` of UTF-8 paths.
    public func edit(_ jobs: [(path: String, edit: TagEdit)]) -> [TagFileReport] {
        edit(jobs.map { (file: MediaPath($0.path), edit: $0.edit) })
    }

    /// Writes each job's edit to its file, in groups of `SafeFileWriter.groupSize` whose journal entries and
    /// fsyncs are shared (a group's files each wholly old or wholly new, whatever happens); the reports
    /// in the order of `jobs`. Never throws: a failure is its file's report's `error` (that file untouched).
    /// Groups are committed (their fsyncs waited for) on threads of their own while the next is read and
    /// rendered, up to `committing` at once: on 1,000 padded files the waits were half the time when they
    /// took turns, and with one commit at a time each group still waited for its journal entry's two
    /// syncs (~0.2 s each on a busy ext4, issue 50) before the next group's could begin; two commits'
    /// syncs share the file system's journal commits. (Groups hold no file in common unless `jobs` names
    /// one twice, and then the later group finds the file changed and leaves it, as it did before.)
    ///
    /// `shouldStop` is asked before each group: once true, the groups not begun are not written (their
    /// reports say `notWritten`); the groups begun are finished, each file wholly old or wholly new, so a
    /// Ctrl-C leaves no half-written file and no hidden copy.
    public func edit(_ jobs: [(file: MediaPath, edit: TagEdit)], shouldStop: () -> Bool = { false }) -> [TagFileReport] {
        let committed = CommittedGroups(count: jobs.count)
        let commits = DispatchGroup()
        let slots = DispatchSemaphore(value: Self.committing)
        for start in stride(from: 0, to: jobs.count, by: SafeFileWriter.groupSize) {
            let slice = jobs[start..<min(jobs.count, start + SafeFileWriter.groupSize)]
            if shouldStop() {
                committed.store(slice.map { job in
                    var report = TagFileReport(file: job.file)
                    report.outcome = .notWritten
                    return report
                }, at: start)
                continue
            }
            let group = SafeFileWriter.Group(writer: SafeFileWriter(journal: journal, readsForRefresh: readsForRefresh), paths: slice.map(\.file))
            group.beforeInPlaceWrite = beforeInPlaceWrite
            var reports: [TagFileReport] = []
            for (i, job) in slice.enumerated() {
                let (report, rendering) = prepare(job.file, job.edit, render: true)
                if let rendering {
                    group.add(i, rendering.rendering, to: job.file, original: rendering.original, check: force ? nil : WriteCheck(job.edit))
                }
                reports.append(report)
            }
            slots.wait()
            let handed = HandedGroup(group: group, reports: reports, start: start)
            commits.enter()
            Thread.detachNewThread {
                committed.store(handed.commit(), at: handed.start)
                slots.signal()
                commits.leave()
            }
        }
        commits.wait()
        return committed.reports
    }

    /// How many groups may be committing at once while the next is prepared (each holds up to
    /// `SafeFileWriter.groupSize` descriptors: with the one being prepared, 384 of the usual 1,024).
    static let committing = 2

    /// Reads `path` and applies `edit` in memory: the report of what changes (outcome `planned`), and with
    /// `render` the bytes to write and the identity the file had when read.
    func prepare(_ file: MediaPath, _ edit: TagEdit, render: Bool) -> (report: TagFileReport, rendering: (rendering: TagFile.Rendering, original: FileIdentity)?) {
        var report = TagFileReport(file: file)
        let path = file.string      // for messages
        do {
            let fd = file.withCString { open($0, O_RDONLY | O_CLOEXEC) }
            guard fd >= 0 else { throw TagWriteError.system("open", path, errno) }
            defer { close(fd) }
            let original = try FileIdentity.of(fd: fd, path: path)
            let file = try TagFile(fd: fd, size: original.size, path: path, fileExtension: file.fileExtension)
            let before = file.properties
            report.picturesBefore = file.pictureCount
            let changes = Self.toTheFieldThatHoldsIt(edit.changes, before, format: file.format)
            let after = TagChange.joinSingleValued(TagChange.apply(changes, to: before, totalsApart: file.keepsTotalsApart),
                                                   file.isSingleValued)
            if !Self.sameMap(before, after) { report.unsupported = file.setProperties(after) }
            if edit.removePictures || edit.picture != nil { file.removePictures() }
            if let picture = edit.picture, !file.addPicture(picture.data, mime: picture.mime) {
                report.unsupported.append("(picture)")
            }
            report.picturesAfter = file.pictureCount
            var ratingChange: TagFileReport.FieldChange?
            if let stars = edit.rating, stars > 0 {
                if let key = file.ratingKey {
                    let old = file.ratingValue
                    if file.setRating(stars: min(stars, 5)) {
                        ratingChange = .init(key: key, old: old.map { [$0] } ?? [], new: file.ratingValue.map { [$0] } ?? [])
                    } else {
                        report.unsupported.append("(rating)")
                    }
                } else {
                    report.unsupported.append("(rating)")
                }
            }
            report.changes = Self.differences(before, file.properties)
            // POPM, `rate` and WM/SharedUserRating are not in TagLib's PropertyMap (FMPS_RATING is).
            if let ratingChange, ratingChange.old != ratingChange.new, !report.changes.contains(where: { $0.key == ratingChange.key }) {
                report.changes.append(ratingChange)
            }
            guard report.changesSomething else { return (report, nil) }
            report.outcome = .planned
            guard render else { return (report, nil) }
            if !original.isWritable { throw TagWriteError.readOnly(path) }
            let rendering = try file.render()
            // Changes planned and nothing to write: TagLib dropped the edit. Not "already as asked".
            if case .patches(let patches) = rendering, patches.isEmpty { throw TagWriteError.nothingWritten(path) }
            return (report, (rendering, original))
        } catch {
            report.outcome = .failed
            report.error = "\(error)"
            return (report, nil)
        }
    }

    /// The changes with a comment aimed at the key the file holds its comment in: a Vorbis comment
    /// (FLAC, Ogg) with DESCRIPTION and no COMMENT (as ffmpeg and many rippers write it, and mlib's reader
    /// reads it as the comment) gets its DESCRIPTION changed, not a second comment beside it that ffprobe
    /// and FFmpeg-based players never show.
    static func toTheFieldThatHoldsIt(_ changes: [TagChange], _ map: [(key: String, value: String)], format: String) -> [TagChange] {
        guard format == "flac" || format.hasPrefix("ogg"), !map.contains(where: { $0.key == "COMMENT" }),
              map.contains(where: { $0.key == "DESCRIPTION" }) else { return changes }
        return changes.map { $0.key == "COMMENT" ? TagChange(field: $0.field, key: "DESCRIPTION", operation: $0.operation) : $0 }
    }

    static func sameMap(_ a: [(key: String, value: String)], _ b: [(key: String, value: String)]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// The keys whose values differ, in the order they first appear.
    static func differences(_ before: [(key: String, value: String)], _ after: [(key: String, value: String)]) -> [TagFileReport.FieldChange] {
        func grouped(_ map: [(key: String, value: String)]) -> ([String], [String: [String]]) {
            var order: [String] = []
            var values: [String: [String]] = [:]
            for (k, v) in map { if values[k] == nil { order.append(k) }; values[k, default: []].append(v) }
            return (order, values)
        }
        let (oldOrder, old) = grouped(before)
        let (newOrder, new) = grouped(after)
        var keys = oldOrder
        for k in newOrder where old[k] == nil { keys.append(k) }
        return keys.compactMap { k in
            let o = old[k] ?? [], n = new[k] ?? []
            return o == n ? nil : TagFileReport.FieldChange(key: k, old: o, new: n)
        }
    }
}

/// A prepared group handed to the committing thread, which alone uses it from then on.
private final class HandedGroup: @unchecked Sendable {
    let group: SafeFileWriter.Group
    var reports: [TagFileReport]
    let start: Int
    init(group: SafeFileWriter.Group, reports: [TagFileReport], start: Int) {
        self.group = group
        self.reports = reports
        self.start = start
    }

    /// Commits the group; its reports with the outcomes.
    func commit() -> [TagFileReport] {
        let outcomes = group.commit()
        for (i, probed) in group.probed { reports[i].probed = probed }
        for (i, outcome) in outcomes {
            switch outcome {
            case .success(let (method, bytes)):
                reports[i].outcome = method == .inPlace ? .inPlace : method == .rewritten ? .rewritten : .unchanged
                reports[i].bytesWritten = bytes
            case .failure(let error):
                reports[i].outcome = .failed
                reports[i].error = "\(error)"
            }
        }
        return reports
    }
}

/// The reports of every committed group, in job order.
private final class CommittedGroups: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [TagFileReport?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func store(_ reports: [TagFileReport], at start: Int) {
        lock.withLock { for (i, report) in reports.enumerated() { slots[start + i] = report } }
    }
    var reports: [TagFileReport] { lock.withLock { slots.compactMap { $0 } } }
}
