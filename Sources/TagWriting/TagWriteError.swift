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
        }
    }
}
