import Glibc
import MediaIndex
import MediaModel
import MediaProbe

extension MediaScanner {
    /// Reads again exactly `files`, each an indexed item whose file mlib just changed (`mlib tag`), and
    /// updates their rows in batches of `batchSize` (one transaction each): the same `update` edit a scan
    /// makes for a changed file (id, play counts, rating and playlist entries kept; the change log records
    /// it), with the stamp, fingerprint and end hashes the next scan compares, so it finds nothing to do.
    /// No directory is walked and no other file is read: a scan of the directories holding 1,000 retagged
    /// files listed, diffed and wrote their whole directories.
    /// `probed`: files read moments ago as a scan reads them (a tag write's check): used instead of reading
    /// them again while their stamp is the one they were read with.
    /// Returns the summary (updated, failed) and the files it could not refresh this way — not indexed at
    /// that path, hidden, or no longer a regular file — which the caller leaves to a scan.
    public func refresh(files: [MediaPath], probed: [MediaPath: ProbedFile] = [:]) async throws -> (summary: ScanSummary, notRefreshed: [MediaPath]) {
        var summary = ScanSummary()
        var notRefreshed: [MediaPath] = []
        var jobs: [ProbeJob] = []
        var states: [MediaPath: DirectoryState] = [:]
        for path in Set(files).sorted() {
            let directory = path.directory
            if states[directory] == nil { states[directory] = try index.directoryState(directory) }
            var st = stat()
            guard let known = states[directory]?.items[path], !known.missing,
                  path.withCString({ stat($0, &st) }) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
                notRefreshed.append(path)
                continue
            }
            let file = DirectoryListing.File(path: path, stamp: FileStamp(st), problem: nil, device: Int64(st.st_dev))
            var job = ProbeJob(file: file, existingID: known.id)
            if let read = probed[path], read.stillDescribes(size: file.stamp.size, mtimeNanoseconds: file.stamp.mtimeNanoseconds,
                                                            inode: file.stamp.inode) {
                job.probed = read.result
                job.identity = read.identity
            }
            jobs.append(job)
        }
        // Lyrics sidecars: each folder listed once, as a scan lists it (so the next scan finds the sidecars
        // recorded, a `song.Lrc` too), instead of six names stat'ed a file (6,000 failed stats for 1,000 files).
        if !LyricsReader.isAblated {
            for (directory, indices) in Dictionary(grouping: jobs.indices, by: { jobs[$0].file.path.directory }) {
                guard let found = LyricsSidecars.lookUp(indices.map { jobs[$0].file }, in: directory) else { continue }
                for i in indices {
                    jobs[i].sidecars = LyricsSidecars.stem(jobs[i].file.path.lastComponent.bytes).flatMap { found[$0] } ?? []
                }
            }
        }
        // Probed `width` slices at once, as a scan does (C handles stay inside their task).
        let slices = stride(from: 0, to: jobs.count, by: max(1, (jobs.count + width - 1) / width)).map {
            Array(jobs[$0..<min(jobs.count, $0 + max(1, (jobs.count + width - 1) / width))])
        }
        let outcomes = try await withThrowingTaskGroup(of: [ProbeOutcome].self) { group in
            for slice in slices { group.addTask { slice.map(ProbeOutcome.init) } }
            var all: [ProbeOutcome] = []
            for try await part in group { all += part }
            return all
        }
        var pending: [ScanChange] = []
        for outcome in outcomes {
            switch outcome {
            case .read(let job, let item, let fingerprint, let ends, let lyrics):
                pending.append(.update(id: job.existingID!, item, job.file.stamp, fingerprint: fingerprint, device: job.file.device,
                                       ends: ends, reader: MediaProbe.readerVersion, birth: job.file.birth))
                pending.append(.lyrics(job.file.path, id: job.existingID, lyrics))
                summary.updated += 1
            case .failed(let job, let code, let message):
                pending.append(.fail(job.file.path, job.file.stamp, code: code, message: message, reader: MediaProbe.readerVersion))
                summary.failed += 1
                summary.failures.append(.init(path: job.file.path, code: code, message: message))
            }
            if pending.count >= batchSize { try index.apply(pending, generation: nil); pending.removeAll() }
        }
        if !pending.isEmpty { try index.apply(pending, generation: nil) }
        summary.failures.sort { $0.path < $1.path }
        return (summary, notRefreshed)
    }
}
