import Glibc
import MediaModel
import MediaProbe

extension SafeFileWriter {
    /// Writes many files with the guarantees of `write(_:to:original:)`, paying the fsyncs once per group
    /// instead of once per file (per file they were four: ~10 ms each on this machine's disk, 1,000 files
    /// took 10 s, nearly all of it waiting):
    /// - in place: the old bytes of every file of the group go to one undo entry, fsynced before any file is
    ///   touched; then the new bytes are written, every file is fdatasynced (the writeback of all started
    ///   at once, then each synced in turn: `FileIO.syncAll`), and only then does the entry go. A crash in between leaves the entry:
    ///   the next mlib command writes every file of the group back to its old bytes.
    /// - rewritten: one pending entry naming the group's directories and the token in the copies' names is
    ///   fsynced before any copy exists; each copy gets its new bytes, mode, owner and access time as
    ///   soon as it is rendered (so only one file's content is in memory); all copies are fsynced, then each
    ///   is renamed over its file (after checking the file did not change meanwhile), the directories are
    ///   fsynced, and the entry goes. A crash leaves each original untouched or wholly replaced, and the
    ///   next mlib command removes the copies that were not renamed.
    /// Use: `add` each file as it is rendered, then `commit` once; at most `SafeFileWriter.groupSize` files.
    final class Group {
        let writer: SafeFileWriter
        private let token = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        private let directories: [MediaPath]
        private var pending: TagJournal.Entry?

        private struct InPlace {
            var index: Int
            var path: MediaPath
            var fd: Int32
            var original: FileIdentity
            var patches: [(offset: Int64, bytes: [UInt8])]
            var ranges: [(offset: Int64, old: [UInt8])]
            var check: Checked?
        }
        /// A write to check (`WriteCheck`) and the file as read before it.
        struct Checked {
            var check: WriteCheck
            var before: WriteCheck.Snapshot
        }
        private struct Copy {
            var index: Int
            var path: MediaPath
            var copy: MediaPath
            var fd: Int32
            var original: FileIdentity
            var size: Int
            var check: Checked?
        }
        private var inPlace: [InPlace] = []
        private var copies: [Copy] = []
        /// Per index added, what became of it once known (failures are known at `add`).
        private var outcomes: [Int: Result<(Method, Int), TagWriteError>] = [:]
        /// Per index written, the file as the check read it after the write (`Snapshot.probed`).
        private(set) var probed: [Int: ProbedFile] = [:]
        /// Called with each in-place file once its journal entry is durable, before its last check and its
        /// write: what tests use to change a file in that window (another program's edit).
        var beforeInPlaceWrite: (@Sendable (MediaPath) -> Void)?

        /// `paths`: every file the group may write (their directories go in the pending entry).
        init(writer: SafeFileWriter, paths: [MediaPath]) {
            // A file-size limit fails the write instead of killing mlib halfway (once a group: it was a
            // system call a file).
            signal(SIGXFSZ, SIG_IGN)
            self.writer = writer
            directories = Array(Set(paths.map(\.directory))).sorted()
        }

        deinit {
            for file in inPlace { close(file.fd) }
            for copy in copies { close(copy.fd); _ = copy.copy.withCString(unlink) }
            if let pending { writer.journal.finish(pending) }
        }

        /// Prepares `rendering` of `path` (read as `original`): checks and saves the old bytes of an
        /// in-place write; makes the copy of a rewrite. Nothing is overwritten before `commit`. With `check`,
        /// the file is read now (`WriteCheck.Snapshot`) and the written bytes are compared with it in `commit`.
        func add(_ index: Int, _ rendering: TagFile.Rendering, to path: MediaPath, original: FileIdentity, check: WriteCheck? = nil) {
            do {
                guard original.isWritable else { throw TagWriteError.readOnly(path.string) }
                switch rendering {
                case .patches(let patches) where patches.isEmpty:
                    outcomes[index] = .success((.unchanged, 0))
                case .patches(let patches):
                    let written = patches.map { $0.offset..<($0.offset + Int64($0.bytes.count)) }
                    let checked = check.map { Checked(check: $0, before: WriteCheck.Snapshot(path, writing: written)) }
                    let fd = try SafeFileWriter.openForWriting(path, original: original)
                    var ranges: [(offset: Int64, old: [UInt8])] = []
                    for patch in patches {
                        guard let old = FileIO.read(fd, count: patch.bytes.count, at: patch.offset) else {
                            close(fd)
                            throw TagWriteError.changedMeanwhile(path.string)
                        }
                        ranges.append((patch.offset, old))
                    }
                    inPlace.append(InPlace(index: index, path: path, fd: fd, original: original, patches: patches, ranges: ranges, check: checked))
                case .content(let content):
                    let checked = check.map { Checked(check: $0, before: WriteCheck.Snapshot(path, writing: nil)) }
                    var copy = try makeCopy(index, content, of: path, original: original)
                    copy.check = checked
                    copies.append(copy)
                }
            } catch let error as TagWriteError {
                outcomes[index] = .failure(error)
            } catch {
                outcomes[index] = .failure(.system("write", path.string, EIO))
            }
        }

        private func makeCopy(_ index: Int, _ content: [UInt8], of file: MediaPath, original: FileIdentity) throws -> Copy {
            let path = file.string      // for messages
            if original.links > 1 { throw TagWriteError.hardLinked(path) }
            if pending == nil { pending = try writer.journal.recordPending(token: token, directories: directories) }
            let copyFile = TagJournal.copyPath(of: file, token: token), copy = copyFile.string
            let fd = copyFile.withCString { open($0, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600) }
            guard fd >= 0 else {
                let code = errno
                throw code == EACCES || code == EROFS ? TagWriteError.readOnly(path) : FileIO.isFull(code) ? .diskFull(path) : .system("create", copy, code)
            }
            func fail(_ error: TagWriteError) -> TagWriteError {
                close(fd)
                _ = copyFile.withCString(unlink)
                return error
            }
            if let code = FileIO.writeAll(fd, content) { throw fail(FileIO.isFull(code) ? .diskFull(path) : .system("write", copy, code)) }
            // The disk starts on the copy now, while the next files are rendered; the group's fsync then
            // waits for less (a rewrite's whole file must be on the disk before its rename).
            _ = FileIO.startWriteback(fd)
            if fchown(fd, original.owner, original.group) != 0 {
                var st = stat()
                if fstat(fd, &st) != 0 || st.st_uid != original.owner || st.st_gid != original.group { throw fail(.ownerNotKept(path)) }
            }
            guard fchmod(fd, original.mode & 0o7777) == 0 else { throw fail(.system("chmod", copy, errno)) }
            // The access time stays; the modification time is now's (the content changed).
            var times = [original.atime, timespec(tv_sec: 0, tv_nsec: (1 << 30) - 1)]   // UTIME_NOW (a macro Swift does not import)
            futimens(fd, &times)
            return Copy(index: index, path: file, copy: copyFile, fd: fd, original: original, size: content.count)
        }

        /// Writes what was added, durably, in the order above; the outcome of every index added.
        func commit() -> [Int: Result<(Method, Int), TagWriteError>] {
            commitInPlace()
            commitCopies()
            return outcomes
        }

        private func commitInPlace() {
            defer { for file in inPlace { close(file.fd) }; inPlace = [] }
            guard !inPlace.isEmpty else { return }
            // A file changed since `add` read its old bytes is left alone (its old bytes are not the file's).
            var files: [InPlace] = []
            for file in inPlace {
                if (try? FileIdentity.of(fd: file.fd, path: file.path.string)) == file.original { files.append(file) } else {
                    outcomes[file.index] = .failure(.changedMeanwhile(file.path.string))
                }
            }
            guard !files.isEmpty else { return }
            let entry: TagJournal.Entry
            do {
                entry = try writer.journal.recordUndo(files.map { TagJournal.UndoRecord(path: $0.path, file: $0.original, ranges: $0.ranges) })
            } catch {
                let failure = error as? TagWriteError ?? .system("journal", writer.journal.directory, EIO)
                for file in files { outcomes[file.index] = .failure(failure) }
                return
            }
            KillPoint.reached(.undoRecorded)
            var written: [InPlace] = []
            var undoFailed = false
            for file in files {
                beforeInPlaceWrite?(file.path)
                // The last check, right before the write: the journal's write and fsyncs took milliseconds,
                // in which another program may have rewritten the file; the patches were computed from the
                // bytes read at `add`, and are written only over those same bytes.
                guard (try? FileIdentity.of(fd: file.fd, path: file.path.string)) == file.original,
                      file.ranges.allSatisfy({ FileIO.read(file.fd, count: $0.old.count, at: $0.offset) == $0.old }) else {
                    outcomes[file.index] = .failure(.changedMeanwhile(file.path.string))
                    continue
                }
                var bytes = 0
                var failure: Int32?
                for patch in file.patches {
                    if let code = FileIO.writeAll(file.fd, patch.bytes, at: patch.offset) { failure = code; break }
                    bytes += patch.bytes.count
                }
                if let code = failure {
                    // Undone now, from the same old bytes the entry holds (which stays if this fails too).
                    if !SafeFileWriter.restore(file.ranges, fd: file.fd) { undoFailed = true }
                    outcomes[file.index] = .failure(FileIO.isFull(code) ? .diskFull(file.path.string) : .system("write", file.path.string, code))
                } else {
                    written.append(file)
                    outcomes[file.index] = .success((.inPlace, bytes))
                }
            }
            KillPoint.reached(.inPlaceWritten)
            let synced = FileIO.syncAll(written.map(\.fd), dataOnly: true)
            KillPoint.reached(.inPlaceSynced)
            if let code = synced.compactMap({ $0 }).first {
                // Not durable: every file of the group goes back to its old bytes now (or, failing that, at
                // the next command, from the entry, which then stays).
                for file in written {
                    if !SafeFileWriter.restore(file.ranges, fd: file.fd) { undoFailed = true }
                    outcomes[file.index] = .failure(.system("fsync", file.path.string, code))
                }
            } else {
                // The check, while the entry still holds the old bytes: a file that changed more than asked
                // goes back to them now (or, failing that, at the next command, from the entry).
                for file in written {
                    guard let checked = file.check else { continue }
                    let after = WriteCheck.Snapshot.after(file.path, checked.before, identified: writer.readsForRefresh)
                    let differences = checked.check.differences(checked.before, after)
                    guard !differences.isEmpty else {
                        probed[file.index] = after.probed
                        continue
                    }
                    if !SafeFileWriter.restore(file.ranges, fd: file.fd) { undoFailed = true }
                    outcomes[file.index] = .failure(.wouldDamage(file.path.string, differences))
                }
            }
            if undoFailed { close(entry.fd) } else { writer.journal.finish(entry) }
        }

        private func commitCopies() {
            defer {
                for copy in copies { close(copy.fd) }
                copies = []
                if let pending { writer.journal.finish(pending); self.pending = nil }
            }
            guard !copies.isEmpty else { return }
            let synced = FileIO.syncAll(copies.map(\.fd), dataOnly: false)
            KillPoint.reached(.copiesSynced)
            var renamedIn: Set<MediaPath> = []
            for (copy, code) in zip(copies, synced) {
                // The check reads the synced copy as the file it will become.
                let after = code == nil ? copy.check.map { WriteCheck.Snapshot.after(copy: copy.copy, of: copy.path, $0.before, identified: writer.readsForRefresh) } : nil
                if let code {
                    _ = copy.copy.withCString(unlink)
                    outcomes[copy.index] = .failure(FileIO.isFull(code) ? .diskFull(copy.path.string) : .system("fsync", copy.copy.string, code))
                } else if let checked = copy.check, let after,
                          case let differences = checked.check.differences(checked.before, after), !differences.isEmpty {
                    // The check: the copy changed more than asked; the file stays as it is.
                    _ = copy.copy.withCString(unlink)
                    outcomes[copy.index] = .failure(.wouldDamage(copy.path.string, differences))
                } else if (try? FileIdentity.of(path: copy.path)) != copy.original {
                    _ = copy.copy.withCString(unlink)
                    outcomes[copy.index] = .failure(.changedMeanwhile(copy.path.string))
                } else if copy.copy.withCString({ from in copy.path.withCString { rename(from, $0) } }) != 0 {
                    let code = errno
                    _ = copy.copy.withCString(unlink)
                    outcomes[copy.index] = .failure(.system("rename", copy.path.string, code))
                } else {
                    renamedIn.insert(copy.path.directory)
                    outcomes[copy.index] = .success((.rewritten, copy.size))
                    // The copy as the check read it (under the file's extension) is the file now: the same
                    // inode, size and time, which the refresh checks before using it.
                    probed[copy.index] = after?.probed
                }
            }
            KillPoint.reached(.renamed)
            // The renames made durable before the entry that would remove unrenamed copies goes.
            let directoryFDs = renamedIn.map { $0.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } }.filter { $0 >= 0 }
            _ = FileIO.syncAll(directoryFDs, dataOnly: false)
            for fd in directoryFDs { close(fd) }
        }
    }

    /// Tests only: `MLIB_TEST_TAG_KILL_AT=POINT` makes mlib kill itself (SIGKILL) when a group's commit
    /// reaches POINT, between the grouped steps, so the fault tests can show the journal completing a
    /// group cut at each of them (`FaultTests.killBetweenTheGroupedSteps`). Read once.
    enum KillPoint: String {
        /// The group's undo entry is durable; no file written yet.
        case undoRecorded = "undo-recorded"
        /// Every in-place file written and its writeback started; none synced.
        case inPlaceWritten = "in-place-written"
        /// Every in-place file synced; the check not run and the entry still there.
        case inPlaceSynced = "in-place-synced"
        /// Every copy synced; none renamed.
        case copiesSynced = "copies-synced"
        /// Every copy renamed; the directories not synced and the pending entry still there.
        case renamed

        private static let chosen: KillPoint? = getenv("MLIB_TEST_TAG_KILL_AT").flatMap { KillPoint(rawValue: String(cString: $0)) }

        static func reached(_ point: KillPoint) {
            if chosen == point { raise(SIGKILL) }
        }
    }

    /// The most files one group holds open (an in-place file's descriptor, a copy's) until its commit.
    static let groupSize = 128

    /// Opens `path` to write in place, refusing a read-only file and one that is no longer `original`.
    static func openForWriting(_ file: MediaPath, original: FileIdentity) throws -> Int32 {
        let fd = file.withCString { open($0, O_RDWR | O_CLOEXEC) }
        let path = file.string
        guard fd >= 0 else {
            let code = errno
            throw code == EACCES || code == EROFS || code == EPERM ? TagWriteError.readOnly(path) : TagWriteError.system("open", path, code)
        }
        guard (try? FileIdentity.of(fd: fd, path: path)) == original else {
            close(fd)
            throw TagWriteError.changedMeanwhile(path)
        }
        return fd
    }

    /// Writes `ranges`' old bytes back and syncs; false when that failed (the journal entry must stay).
    static func restore(_ ranges: [(offset: Int64, old: [UInt8])], fd: Int32) -> Bool {
        for range in ranges where FileIO.writeAll(fd, range.old, at: range.offset) != nil { return false }
        return fdatasync(fd) == 0
    }
}
