import Glibc
import MediaIndex
import MediaModel
import MediaProbe

/// A file to read, and what the index knew of it.
struct ProbeJob: Sendable {
    var file: DirectoryListing.File
    /// The item found at this file's path.
    var existingID: Int64?
    /// A recorded failure whose file has the same size, mtime and inode: read again (a chmod or a passing
    /// I/O error leaves no other trace), but not reported again if it still fails.
    var isRetry = false
    /// Unchanged, but an older reader (`MediaProbe.readerVersion`) read or refused it: read again in place.
    var isReread = false
    /// Its lyrics sidecars as the folder listing showed them; nil: not listed (`refresh`), looked up by name.
    var sidecars: [SidecarStamp]? = nil
    /// The file as read moments ago with the stamp it still has (`refresh(files:probed:)`): not read again.
    var probed: ProbeResult? = nil
    /// Its content identity from that same read, if the reader made it: then the file is not opened.
    var identity: ContentIdentity? = nil
}

/// What reading one file gave. Built inside a child task: the probe's C handles never leave it.
enum ProbeOutcome: Sendable {
    case read(ProbeJob, MediaItem, fingerprint: Int64, ends: EndHashes, lyrics: [StoredLyrics])
    case failed(ProbeJob, code: String, message: String)

    init(_ job: ProbeJob) {
        var job = job
        let path = job.file.path, stamp = job.file.stamp
        if let problem = job.file.problem {
            // The walk could not stat it: a link to nothing, or a loop of links (which is not "dangling").
            let error: ProbeError = problem == String(cString: strerror(ELOOP)) ? .symlinkLoop(path) : .notFound(path)
            self = .failed(job, code: error.code, message: error == .notFound(path) ? "dangling link (\(problem))" : error.reason)
            return
        }
        do {
            let probe: ProbeResult, content: ContentIdentity
            if let probed = job.probed, let handed = job.identity {
                (probe, content) = (probed, handed)               // both read moments ago: the file is not opened
            } else {
                // One open for the probe and the fingerprint, and no stat: the walk's is the file's.
                let file = try MediaFile(path, statted: FileFacts(size: stamp.size, modificationTime: Double(stamp.mtimeNanoseconds) / 1e9,
                                                                  device: UInt64(bitPattern: job.file.device), inode: UInt64(bitPattern: stamp.inode)))
                if let probed = job.probed { probe = probed } else { probe = try MediaProbe.probe(file, detail: .library) }
                content = ContentIdentity(file)                   // both ends hashed once
            }
            job.file.birth = FileBirth.of(path, inode: stamp.inode)
            var item = probe.item
            // The walk's stat is what the next scan compares with: store exactly that.
            item.path = path
            item[.fileSize] = .integer(stamp.size)
            item[.modificationDate] = .real(Double(stamp.mtimeNanoseconds) / 1e9)
            let identity = Fingerprint.identity(content)
            let lyrics = LyricsReader.isAblated ? []
                : LyricsSidecars.read(probe, path: path, sidecars: job.sidecars ?? LyricsSidecars.lookUp(path), into: &item)
            self = .read(job, item, fingerprint: identity.fingerprint, ends: identity.ends, lyrics: lyrics)
        } catch {
            self = .failed(job, code: error.code, message: error.reason)
        }
    }
}
