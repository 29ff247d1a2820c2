import Foundation

/// Why a file was not written. Every case leaves the file as it was.
public enum TagWriteError: Error, Equatable, CustomStringConvertible, Sendable {
    case unsupportedFormat(String)
    case unreadable(String)
    case tagLibRefused
    case readOnly(String)
    case changedMeanwhile(String)
    case diskFull(String)
    case hardLinked(String)
    case ownerNotKept(String)
    case system(String, String, Int32)     // what, path, errno
    /// The check after the write (`WriteCheck`) found other differences than the fields asked: path, each
    /// difference. The old file was kept (a copy not renamed) or put back (an in-place write undone).
    case wouldDamage(String, [String])
    /// TagLib took the edit and wrote nothing (a damaged file, a variant it reads but cannot save: a
    /// big-endian RIFX WAV): it was reported as "already as asked", exit 0.
    case nothingWritten(String)

    public var description: String {
        switch self {
        case .unsupportedFormat(let p): "\(p): mlib cannot write tags to this format"
        case .unreadable(let p): "\(p): TagLib cannot read this file"
        case .tagLibRefused: "TagLib could not render the new tags"
        case .readOnly(let p): "\(p): the file is read-only; not written"
        case .changedMeanwhile(let p): "\(p): another program changed the file meanwhile; not written"
        case .diskFull(let p): "\(p): no space left on the device; the file is unchanged"
        case .hardLinked(let p): "\(p): the file has other hard links, which a rewrite would split; not written"
        case .ownerNotKept(let p): "\(p): the rewritten file could not keep the file's owner; not written"
        case .system(let what, let p, let code): "\(p): \(what): \(String(cString: strerror(code)))"
        case .nothingWritten(let p): "\(p): TagLib saved nothing of the edit (a damaged file, or a variant it cannot write such as a big-endian RIFX WAV); not written"
        case .wouldDamage(let p, let differences):
            "\(p): the write would also change \(differences.joined(separator: "; ")); not written, the file is as it was (--force writes it anyway)"
        }
    }
}
