import Glibc

/// Puts a rendered tag edit on disk so that the file is always wholly its old bytes or wholly its new ones.
///
/// - Patches (the new tag fits in the old one's space): the old bytes of the ranges go to the undo journal
///   (fsynced) first, then the new bytes are written in place and fsynced, then the journal entry goes.
///   A crash in between leaves an entry the next mlib command uses to write the old bytes back.
/// - New content (another length): a copy beside the file (same directory, hidden temporary name) gets the
///   new bytes, the file's mode, owner and access time, is fsynced and renamed over the file. A crash leaves
///   the original untouched and a `pending` entry that makes the next mlib command remove the copy.
/// Both refuse a read-only file and one that changed since it was read (device, inode, size, mtime).
struct SafeFileWriter {
    let journal: TagJournal

    enum Method: String, Sendable { case unchanged, inPlace = "in place", rewritten }

    /// Writes `rendering` over `path`, which was read as `original`. Returns the method and the bytes written.
    func write(_ rendering: TagFile.Rendering, to path: String, original: FileIdentity) throws -> (Method, Int) {
        // A file-size limit (ulimit -f) must fail the write, not kill mlib with SIGXFSZ halfway.
        signal(SIGXFSZ, SIG_IGN)
        guard original.isWritable else { throw TagWriteError.readOnly(path) }
        switch rendering {
        case .patches(let patches):
            if patches.isEmpty { return (.unchanged, 0) }
            return (.inPlace, try writeInPlace(patches, to: path, original: original))
        case .content(let content):
            return (.rewritten, try rewrite(content, to: path, original: original))
        }
    }

    private func writeInPlace(_ patches: [(offset: Int64, bytes: [UInt8])], to path: String, original: FileIdentity) throws -> Int {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw code == EACCES || code == EROFS || code == EPERM ? TagWriteError.readOnly(path) : TagWriteError.system("open", path, code)
        }
        defer { close(fd) }
        guard try FileIdentity.of(fd: fd, path: path) == original else { throw TagWriteError.changedMeanwhile(path) }
        var ranges: [(offset: Int64, old: [UInt8])] = []
        for patch in patches {
            guard let old = FileIO.read(fd, count: patch.bytes.count, at: patch.offset) else { throw TagWriteError.changedMeanwhile(path) }
            ranges.append((patch.offset, old))
        }
        let entry = try journal.recordUndo(path: path, file: original, ranges: ranges)
        var written = 0
        for patch in patches {
            if let code = FileIO.writeAll(fd, patch.bytes, at: patch.offset) {
                // Undo now, from the same old bytes the journal holds (kept if this fails too).
                for range in ranges where FileIO.writeAll(fd, range.old, at: range.offset) != nil { throw TagWriteError.system("write", path, code) }
                fsync(fd)
                journal.finish(entry)
                throw FileIO.isFull(code) ? TagWriteError.diskFull(path) : TagWriteError.system("write", path, code)
            }
            written += patch.bytes.count
        }
        guard fsync(fd) == 0 else { throw TagWriteError.system("fsync", path, errno) }   // the entry stays: recovery undoes
        journal.finish(entry)
        return written
    }

    private func rewrite(_ content: [UInt8], to path: String, original: FileIdentity) throws -> Int {
        if original.links > 1 { throw TagWriteError.hardLinked(path) }
        let directory = FileIO.directory(of: path)
        let copy = directory + "/." + FileIO.name(of: path) + ".mlib-tag-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let entry = try journal.recordPending(temporary: copy)
        func fail(_ error: TagWriteError, _ fd: Int32) -> TagWriteError {
            if fd >= 0 { close(fd) }
            unlink(copy)
            journal.finish(entry)
            return error
        }
        let fd = open(copy, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            throw fail(code == EACCES || code == EROFS ? .readOnly(path) : FileIO.isFull(code) ? .diskFull(path) : .system("create", copy, code), -1)
        }
        if let code = FileIO.writeAll(fd, content) {
            throw fail(FileIO.isFull(code) ? .diskFull(path) : .system("write", copy, code), fd)
        }
        if fchown(fd, original.owner, original.group) != 0 {
            var st = stat()
            if fstat(fd, &st) != 0 || st.st_uid != original.owner || st.st_gid != original.group { throw fail(.ownerNotKept(path), fd) }
        }
        guard fchmod(fd, original.mode & 0o7777) == 0 else { throw fail(.system("chmod", copy, errno), fd) }
        guard fsync(fd) == 0 else { let code = errno; throw fail(FileIO.isFull(code) ? .diskFull(path) : .system("fsync", copy, code), fd) }
        // The access time stays; the modification time is now's (the content changed).
        var times = [original.atime, timespec(tv_sec: 0, tv_nsec: (1 << 30) - 1)]   // UTIME_NOW (a macro Swift does not import)
        futimens(fd, &times)
        guard (try? FileIdentity.of(path: path)) == original else { throw fail(.changedMeanwhile(path), fd) }
        guard rename(copy, path) == 0 else { throw fail(.system("rename", path, errno), fd) }
        close(fd)
        FileIO.syncDirectory(directory)
        journal.finish(entry)
        return content.count
    }
}
