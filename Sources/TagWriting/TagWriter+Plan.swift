import Glibc
import MediaModel

extension TagWriter {
    /// The dry run's report of `edit` on `file`: what changes (as `edit(_:_:write: false)`) and, unless
    /// `force`, whether the check (`WriteCheck`) would refuse the write. The edit is rendered as a write
    /// renders it and applied to a temporary copy of the file in `$TMPDIR` (never to the file itself), which
    /// is read as the written file would be: a difference outside the fields asked fails the report with the
    /// check's reason, as the write would. Costs a copy of each file changed; a file that cannot be rendered
    /// (read-only, refused by TagLib) is reported as the plan alone says.
    public func plan(_ file: MediaPath, _ edit: TagEdit) -> TagFileReport {
        let planned = prepare(file, edit, render: false).report
        guard !force, planned.outcome == .planned, let rendering = prepare(file, edit, render: true).rendering else { return planned }
        var template = Array((Self.temporaryDirectory + "/mlib-dry-run-XXXXXX." + file.fileExtension).utf8CString)
        let suffix = Int32(file.fileExtension.utf8.count + 1)
        let copyFD = mkstemps(&template, suffix)
        guard copyFD >= 0 else { return planned }
        let copy = MediaPath(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        defer { close(copyFD); _ = copy.withCString(unlink) }
        let written: [Range<Int64>]?
        switch rendering.rendering {
        case .content(let content):
            guard FileIO.writeAll(copyFD, content, at: 0) == nil else { return planned }
            written = nil
        case .patches(let patches):
            let fd = file.withCString { open($0, O_RDONLY | O_CLOEXEC) }
            guard fd >= 0 else { return planned }
            defer { close(fd) }
            var at: Int64 = 0
            while at < rendering.original.size {
                guard let chunk = FileIO.read(fd, count: Int(min(1 << 20, rendering.original.size - at)), at: at), !chunk.isEmpty,
                      FileIO.writeAll(copyFD, chunk, at: at) == nil else { return planned }
                at += Int64(chunk.count)
            }
            for patch in patches where FileIO.writeAll(copyFD, patch.bytes, at: patch.offset) != nil { return planned }
            written = patches.map { $0.offset..<($0.offset + Int64($0.bytes.count)) }
        }
        let before = WriteCheck.Snapshot(file, writing: written)
        let differences = WriteCheck(edit).differences(before, .after(copy, before))
        guard !differences.isEmpty else { return planned }
        var report = planned
        report.outcome = .failed
        report.error = "\(TagWriteError.wouldDamage(file.string, differences))"
        return report
    }

    static var temporaryDirectory: String {
        guard let dir = getenv("TMPDIR"), dir.pointee != 0 else { return "/tmp" }
        return String(cString: dir)
    }
}
