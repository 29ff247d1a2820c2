import Foundation
import Glibc
import MediaModel

/// The undo journal that makes `mlib tag`'s writes all-or-nothing, in a directory of its own (by default
/// `$XDG_DATA_HOME/mlib/tag-journal`, beside the default library; `MLIB_TAG_JOURNAL` names another).
///
/// Two kinds of entry, each a file created under its final name, sealed (a first line with the length
/// and a hash of the rest: `seal`), fsynced with its directory before anything is written under it, and
/// locked (flock) by the process that works under it, so a recovery by another mlib leaves a live write
/// alone. An entry whose seal does not match was cut short by a crash before its fsync returned, so
/// nothing was written under it: recovery removes it. (Entries were written as `.tmp` files renamed into
/// place, which cost the file system a second journal commit per group, ~0.2 s on a busy ext4: issue 50;
/// such entries are still read.) One entry covers a group of files (`SafeFileWriter.Group`): its fsyncs
/// are paid once per group, not once per file.
/// - `*.undo`, before bytes of files are overwritten in place: per file its device, inode and size, and the
///   old bytes of every range about to change. Recovery writes the old bytes back: each file is wholly old
///   again, however far the write went.
/// - `*.pending`, before rewritten copies are made beside files: the copies' directories and the token in
///   their names (`.NAME.mlib-tag-TOKEN`; version 1: one copy's path). Recovery removes the copies still
///   there (their renames did not happen; the originals are untouched).
/// Recovery (`recover`) runs when a library is opened (`Library.open`), before every scan and refresh,
/// and before every mlib command: a running `mlib serve` or `mlib watch` completes an interrupted write
/// before it reads the file again.
public struct TagJournal: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public static func defaultDirectory(environment: [String: String] = ProcessEnvironment.values(["MLIB_TAG_JOURNAL", "XDG_DATA_HOME", "HOME"])) -> String {
        if let dir = environment["MLIB_TAG_JOURNAL"], !dir.isEmpty { return dir }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return data + "/mlib/tag-journal"
    }

    /// A journal entry held by this process: its file stays locked until `finish`.
    final class Entry {
        let path: String
        let fd: Int32
        init(path: String, fd: Int32) { self.path = path; self.fd = fd }
    }

    private static let undoMagic = "MLIB-TAG-UNDO 1\n"
    private static let pendingMagic = "MLIB-TAG-PENDING 1\n"
    private static let groupUndoMagic = "MLIB-TAG-UNDO 2\n"
    private static let groupPendingMagic = "MLIB-TAG-PENDING 2\n"

    /// The old bytes of one file's ranges about to be overwritten in place.
    struct UndoRecord {
        var path: MediaPath
        var file: FileIdentity
        var ranges: [(offset: Int64, old: [UInt8])]
    }

    /// Records the old bytes of `ranges` of the file at `path` (identity `file`) before they are overwritten.
    func recordUndo(path: MediaPath, file: FileIdentity, ranges: [(offset: Int64, old: [UInt8])]) throws -> Entry {
        try recordUndo([UndoRecord(path: path, file: file, ranges: ranges)])
    }

    /// Records the old bytes of every file of `records` in one entry (one fsync for the group).
    func recordUndo(_ records: [UndoRecord]) throws -> Entry {
        var header = Self.groupUndoMagic + "\(records.count)\n"
        for record in records {
            header += Self.hex(record.path) + "\n" + "\(record.file.device) \(record.file.inode) \(record.file.size)\n\(record.ranges.count)\n"
            for range in record.ranges { header += "\(range.offset) \(range.old.count)\n" }
        }
        var bytes = Array(header.utf8)
        for record in records { for range in record.ranges { bytes += range.old } }
        return try record(bytes, suffix: "undo", about: records.first?.path.string ?? directory)
    }

    /// Records the temporary copy `temporary` before it is created.
    func recordPending(temporary: MediaPath) throws -> Entry {
        try record(Array((Self.pendingMagic + Self.hex(temporary) + "\n").utf8), suffix: "pending", about: temporary.string)
    }

    /// Records, before any is created, that copies named `.NAME.mlib-tag-TOKEN` (`copyName`) may appear in
    /// `directories`: one entry, one fsync, for a group of rewrites.
    func recordPending(token: String, directories: [MediaPath]) throws -> Entry {
        let text = Self.groupPendingMagic + token + "\n" + directories.map { Self.hex($0) + "\n" }.joined()
        return try record(Array(text.utf8), suffix: "pending", about: directories.first?.string ?? directory)
    }

    /// The hidden name of the rewritten copy of `path` made under the pending entry of `token` (by bytes:
    /// the copy of a file whose name is not UTF-8 sits beside it too).
    static func copyPath(of path: MediaPath, token: String) -> MediaPath {
        path.directory.appending(MediaPath(bytes: [UInt8(ascii: ".")] + path.lastComponent.bytes + Array(copySuffix(token).utf8)))
    }

    static func copySuffix(_ token: String) -> String { ".mlib-tag-" + token }

    /// The write under `entry` is done (or was undone): the entry goes.
    func finish(_ entry: Entry) {
        unlink(entry.path)
        close(entry.fd)
    }

    private func record(_ bytes: [UInt8], suffix: String, about path: String) throws -> Entry {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Named by this process (`writerIsAlive`): between its creation and its lock, another mlib's
        // recovery finds it empty and leaves it to the live writer.
        let final = directory + "/\(getpid())-\(UInt64.random(in: 0...UInt64.max)).\(suffix)"
        let fd = open(final, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            throw FileIO.isFull(code) ? TagWriteError.diskFull(path) : TagWriteError.system("journal", final, code)
        }
        flock(fd, LOCK_EX)
        if let code = FileIO.writeAll(fd, Self.seal(bytes)) ?? (fsync(fd) == 0 ? nil : errno) {
            unlink(final)
            close(fd)
            throw FileIO.isFull(code) ? TagWriteError.diskFull(path) : TagWriteError.system("journal", final, code)
        }
        // The entry's name durable too before any file is touched (after the fsync above, which committed
        // its creation, this costs the file system no second commit).
        FileIO.syncDirectory(directory)
        return Entry(path: final, fd: fd)
    }

    private static let sealMagic = "MLIB-TAG-SEALED "

    /// `body` behind a line with its length and FNV-1a hash: an entry cut short, or whose blocks a crash
    /// left unwritten (zeros), does not match its seal.
    static func seal(_ body: [UInt8]) -> [UInt8] {
        Array((sealMagic + "\(body.count) \(String(fnv1a(body[...]), radix: 16))\n").utf8) + body
    }

    /// What an entry's file holds: the body of a sealed entry that matches its seal, a legacy entry (made
    /// whole, then renamed into place) as it is; nil for a sealed entry cut short.
    enum Contents { case body([UInt8]), torn }

    static func unseal(_ bytes: [UInt8]) -> Contents {
        let magic = Array(sealMagic.utf8)
        guard bytes.starts(with: magic) else {
            // Legacy entries start with their magic; anything else (an empty file, zeros) is an entry cut
            // short before its first bytes reached the disk.
            let legacy = [undoMagic, pendingMagic, groupUndoMagic, groupPendingMagic].contains { bytes.starts(with: Array($0.utf8)) }
            return legacy ? .body(bytes) : .torn
        }
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return .torn }
        let fields = String(decoding: bytes[magic.count..<end], as: UTF8.self).split(separator: " ")
        let body = bytes[(end + 1)...]
        guard fields.count == 2, let length = Int(fields[0]), let hash = UInt64(fields[1], radix: 16),
              body.count == length, fnv1a(body) == hash else { return .torn }
        return .body(Array(body))
    }

    static func fnv1a(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    /// What recovery did, one line per entry.
    public struct Recovery: Sendable, Equatable {
        public var restored: [String] = []      // files given their old bytes back
        public var removedCopies: [String] = [] // unfinished rewritten copies removed
        public var stale: [String] = []         // entries about a file since replaced or gone (dropped)
        public var failed: [String] = []        // entries that could not be applied (left for next time)
        public var isEmpty: Bool { restored.isEmpty && removedCopies.isEmpty && stale.isEmpty && failed.isEmpty }

        /// Nothing recovered.
        public init() {}

        /// One line per file, for a front to show (the CLI on standard error).
        public var messages: [String] {
            restored.map { "\($0): an interrupted mlib tag was undone (the old tags are back)" }
                + removedCopies.map { "\($0): removed (an interrupted mlib tag's unfinished copy)" }
                + failed.map { "\($0): an interrupted mlib tag could not be undone yet (kept in the journal)" }
        }
    }

    /// Completes what an interrupted tag write left in the journal at `defaultDirectory()` (`recover`):
    /// what `Library.open` and every scan run first, so that no front reads a half-written file.
    @discardableResult
    public static func recoverInterruptedWrites() -> Recovery {
        TagJournal(directory: defaultDirectory()).recover()
    }

    /// Restores or completes every entry no live mlib holds. Cheap when there is none (one opendir).
    @discardableResult
    public func recover() -> Recovery {
        var result = Recovery()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return result }
        // The directory is synced only when an entry went: every command starts here, and an fsync of the
        // empty journal took 3.5 ms of `mlib lyrics`' ~20 ms under load (issue 41), for nothing to make durable.
        var unlinked = false
        for name in names.sorted() {
            let path = directory + "/" + name
            // An entry is created before it is locked: a `.tmp` of a process still alive may be one in that
            // moment (its name starts with the writer's pid), not a leftover; only a dead writer's goes.
            if name.hasSuffix(".tmp"), Self.writerIsAlive(name) { continue }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            // Held: a live mlib is writing under it.
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            if name.hasSuffix(".tmp") {                 // never completed: nothing was written under it
                unlink(path)
                unlinked = true
                continue
            }
            guard let read = FileIO.readWhole(path) else { continue }
            guard case .body(let bytes) = Self.unseal(read) else {
                // Cut short: its writer died before the fsync returned, so it wrote nothing under it (a
                // live writer's, not yet written or locked, is left to it).
                if Self.writerIsAlive(name) { continue }
                unlink(path)
                unlinked = true
                continue
            }
            if name.hasSuffix(".undo"), let undos = Self.parseUndo(bytes) {
                var failed = false
                for undo in undos {
                    switch Self.restore(undo) {
                    case .restored: result.restored.append(undo.path.string)
                    case .stale: result.stale.append(undo.path.string)
                    case .failed: result.failed.append(undo.path.string); failed = true
                    }
                }
                if failed { continue }                      // kept: the next command tries again
            } else if name.hasSuffix(".pending"), let copy = Self.parsePending(bytes) {
                if copy.withCString(unlink) == 0 { result.removedCopies.append(copy.string); FileIO.syncDirectory(copy.directory) }
            } else if name.hasSuffix(".pending"), let group = Self.parseGroupPending(bytes) {
                let suffix = Array(Self.copySuffix(group.token).utf8)
                for directory in group.directories {
                    guard let names = directory.entryNames() else { continue }
                    var removed = false
                    for name in names where name.first == UInt8(ascii: ".") && name.reversed().starts(with: suffix.reversed()) {
                        let copy = directory.appending(MediaPath(bytes: name))
                        if copy.withCString(unlink) == 0 { result.removedCopies.append(copy.string); removed = true }
                    }
                    if removed { FileIO.syncDirectory(directory) }
                }
            } else {
                continue
            }
            unlink(path)
            unlinked = true
        }
        if unlinked { FileIO.syncDirectory(directory) }
        return result
    }

    /// Whether the process that named an entry (`PID-RANDOM.suffix`) still runs.
    static func writerIsAlive(_ name: String) -> Bool {
        guard let pid = name.split(separator: "-").first.flatMap({ pid_t($0) }), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    struct Undo {
        var path: MediaPath
        var device: UInt64, inode: UInt64, size: Int64
        var ranges: [(offset: Int64, old: [UInt8])]
    }

    enum RestoreOutcome { case restored, stale, failed }

    static func restore(_ undo: Undo) -> RestoreOutcome {
        let fd = undo.path.withCString { open($0, O_WRONLY | O_CLOEXEC) }
        guard fd >= 0 else { return errno == ENOENT ? .stale : .failed }
        defer { close(fd) }
        guard let now = try? FileIdentity.of(fd: fd, path: undo.path.string) else { return .failed }
        guard now.device == undo.device, now.inode == undo.inode, now.size == undo.size else { return .stale }
        for range in undo.ranges where FileIO.writeAll(fd, range.old, at: range.offset) != nil { return .failed }
        return fsync(fd) == 0 ? .restored : .failed
    }

    /// The files of an undo entry: version 2 (a group) or 1 (one file, as an mlib before groups wrote).
    static func parseUndo(_ bytes: [UInt8]) -> [Undo]? {
        var at = 0
        // The header: magic, [version 2: the file count], then per file its path, identity, range count and
        // one line per range; the old bytes of every range follow, in the same order.
        func line() -> String? {
            guard let end = bytes[at...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            defer { at = end + 1 }
            return String(decoding: bytes[at..<end], as: UTF8.self)
        }
        let magic = line().map { $0 + "\n" }
        let files: Int
        if magic == undoMagic { files = 1 } else if magic == groupUndoMagic, let n = line().flatMap({ Int($0) }) { files = n } else { return nil }
        var headers: [(path: MediaPath, identity: [UInt64], spans: [(Int64, Int)])] = []
        for _ in 0..<files {
            guard let hexPath = line(), let path = unhex(hexPath),
                  let identity = line()?.split(separator: " ").compactMap({ UInt64($0) }), identity.count == 3,
                  let count = line().flatMap({ Int($0) }) else { return nil }
            var spans: [(Int64, Int)] = []
            for _ in 0..<count {
                guard let parts = line()?.split(separator: " "), parts.count == 2, let o = Int64(parts[0]), let n = Int(parts[1]) else { return nil }
                spans.append((o, n))
            }
            headers.append((path, identity, spans))
        }
        var undos: [Undo] = []
        for header in headers {
            var ranges: [(offset: Int64, old: [UInt8])] = []
            for (offset, length) in header.spans {
                guard at + length <= bytes.count else { return nil }
                ranges.append((offset, Array(bytes[at..<at + length])))
                at += length
            }
            undos.append(Undo(path: header.path, device: header.identity[0], inode: header.identity[1], size: Int64(header.identity[2]),
                              ranges: ranges))
        }
        return undos
    }

    static func parseGroupPending(_ bytes: [UInt8]) -> (token: String, directories: [MediaPath])? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix(groupPendingMagic) else { return nil }
        let lines = text.dropFirst(groupPendingMagic.count).split(separator: "\n").map(String.init)
        guard let token = lines.first, !token.isEmpty else { return nil }
        return (token, lines.dropFirst().compactMap(unhex))
    }

    static func parsePending(_ bytes: [UInt8]) -> MediaPath? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix(pendingMagic) else { return nil }
        let rest = text.dropFirst(pendingMagic.count).split(separator: "\n").first.map(String.init)
        return rest.flatMap(unhex)
    }

    /// Paths as hex of their bytes: any byte, newlines and names that are not UTF-8 included, survives
    /// the line-based header.
    static func hex(_ path: MediaPath) -> String {
        // Digit by digit: String(format:) per byte was 6% of a 1,000-file `mlib tag`'s profile.
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(path.bytes.count * 2)
        for byte in path.bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func unhex(_ s: String) -> MediaPath? {
        var bytes: [UInt8] = []
        var chars = Array(s.utf8)[...]
        while chars.count >= 2 {
            guard let b = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(b)
            chars = chars.dropFirst(2)
        }
        return MediaPath(bytes: bytes)
    }
}
