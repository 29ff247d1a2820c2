import MediaModel

/// Why a file could not be read. Each carries the path and renders as one line for the user.
public enum ProbeError: Error, Sendable, Hashable, CustomStringConvertible {
    case notFound(MediaPath)
    case symlinkLoop(MediaPath)                    // ELOOP: a symlink that leads back to itself
    case permissionDenied(MediaPath)
    case notAFile(MediaPath)                       // a directory, device, socket…
    case empty(MediaPath)                          // zero bytes
    case notMedia(MediaPath, reason: String)       // no demuxer recognised it
    case corrupt(MediaPath, reason: String)        // recognised, but unreadable (truncated, damaged)
    case io(MediaPath, reason: String)             // the read itself failed (EIO, vanished disk)

    public var path: MediaPath {
        switch self {
        case .notFound(let p), .symlinkLoop(let p), .permissionDenied(let p), .notAFile(let p), .empty(let p),
             .notMedia(let p, _), .corrupt(let p, _), .io(let p, _): p
        }
    }

    /// A stable machine-readable code, used in JSON output and in the index's failure table.
    public var code: String {
        switch self {
        case .notFound: "not-found"
        case .symlinkLoop: "symlink-loop"
        case .permissionDenied: "permission-denied"
        case .notAFile: "not-a-file"
        case .empty: "empty"
        case .notMedia: "not-media"
        case .corrupt: "corrupt"
        case .io: "io-error"
        }
    }

    /// The reason without the path.
    public var reason: String {
        switch self {
        case .notFound: "no such file"
        case .symlinkLoop: "too many levels of symbolic links"
        case .permissionDenied: "permission denied"
        case .notAFile: "not a regular file"
        case .empty: "empty file (0 bytes)"
        case .notMedia(_, let r): "not a media file (\(r))"
        case .corrupt(_, let r): "corrupt or truncated (\(r))"
        case .io(_, let r): "read error (\(r))"
        }
    }

    public var description: String { "\(path.string): \(reason)" }
}
