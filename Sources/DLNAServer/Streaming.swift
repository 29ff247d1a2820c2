import Foundation
import Library
import MediaModel
import NIOCore
import NIOHTTP1

/// The file of an item, by its id in the view (never a path from the request): GET and HEAD, with one
/// HTTP Range (206) and the DLNA headers (`transferMode.dlna.org`, `contentFeatures.dlna.org`).
enum Streaming {
    /// A Range header's one byte range within `size`: nil when absent, `.failure` when unsatisfiable.
    static func range(_ header: String?, size: Int) -> Result<Range<Int>, RangeError>? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        guard header.lowercased().hasPrefix("bytes="), !header.contains(",") else { return .failure(RangeError()) }
        let spec = header.dropFirst(6)
        guard let dash = spec.firstIndex(of: "-") else { return .failure(RangeError()) }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces), last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int(last), suffix > 0, size > 0 else { return .failure(RangeError()) }
            return .success(max(0, size - suffix)..<size)
        }
        guard let start = Int(first), start < size else { return .failure(RangeError()) }
        if last.isEmpty { return .success(start..<size) }
        guard let end = Int(last), end >= start else { return .failure(RangeError()) }
        // Clamped before the + 1: `bytes=0-9223372036854775807` (Int.max) overflowed and stopped the server.
        return .success(start..<(min(size - 1, end) + 1))
    }

    struct RangeError: Error {}

    /// The file at `path` opened by `FileContainment` (within `roots`, a symlink not followed: one swapped in
    /// for an indexed file after the scan is not sent), sent whole or by one range.
    static func answer(_ request: HTTPRequest, path: String, roots: [MediaPath], profile: MediaProfile,
                       extraHeaders: [(String, String)] = []) -> HTTPAnswer {
        let handle: NIOFileHandle
        var info = stat()
        do {
            let file = try FileContainment(roots: roots).open(MediaPath(path))
            let descriptor = dup(file.descriptor)
            guard descriptor >= 0 else { return .text(.notFound, "the file is not there\n") }
            handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor)
            let ok = try handle.withUnsafeFileDescriptor { fstat($0, &info) == 0 }
            guard ok, info.st_mode & S_IFMT == S_IFREG else { try? handle.close(); return .text(.notFound, "not a file\n") }
        } catch {
            return .text(.notFound, "the file is not there\n")
        }
        let size = Int(info.st_size)
        var headers = [("Content-Type", profile.mimeType), ("Accept-Ranges", "bytes"),
                       ("transferMode.dlna.org", request.headers.first(name: "transferMode.dlna.org") ?? "Streaming"),
                       ("contentFeatures.dlna.org", profile.contentFeatures)] + extraHeaders
        let headOnly = request.method == .HEAD
        switch range(request.headers.first(name: "Range"), size: size) {
        case nil:
            return .file(.ok, headers, handle, 0..<size, headOnly: headOnly)
        case .success(let bytes):
            headers.append(("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(size)"))
            return .file(.partialContent, headers, handle, bytes, headOnly: headOnly)
        case .failure:
            try? handle.close()
            return .empty(.rangeNotSatisfiable, [("Content-Range", "bytes */\(size)")])
        }
    }
}
