import Foundation
import Hummingbird
import Library
import MediaDecode
import MediaModel
import MediaScanner
import NIOCore
import Playback

// Media: the file's own bytes (with HTTP Range) and cover art. Every path comes from the view (an item
// of the library, under one of its roots); nothing a client sends is ever used as a path.
extension Call {
    /// `stream` and `download`: the original file, with HTTP Range; or, for a `stream` that asks for another
    /// format or a lower bit rate, the transcoded stream (Call+Transcoding).
    func stream(_ method: String) async throws -> Response {
        let catalog = server.catalog
        let id = try parameters.required("id")
        guard let item = catalog.item(id: id) else { throw SubsonicError.notFound("Song \(id)") }
        let path = catalog.view.paths[Int(item)]
        guard RootContainment.root(holding: path, among: catalog.view.roots) != nil else { throw SubsonicError.notFound("Song \(id)") }
        var info = stat()
        guard stat(path.string, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw SubsonicError.notFound("File of song \(id)") }
        if let transcode = try transcodeRequest(method: method, item: item, suffix: path.fileExtension.lowercased()) {
            return try await transcodedStream(path: path, format: transcode.format, bitRate: transcode.bitRate)
        }
        let size = Int(info.st_size)
        var headers = HTTPFields()
        headers[.contentType] = Self.contentType(path.fileExtension.lowercased())
        headers[.acceptRanges] = "bytes"
        let io = FileIO(threadPool: .singleton)
        let head = request.method == .head   // the headers a GET would get, no bytes read
        if let header = request.headers[.range] {
            guard let range = Self.byteRange(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            if head { return Response(status: .partialContent, headers: headers) }
            let body = try await io.loadFile(path: path.string, range: range, context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        }
        headers[.contentLength] = String(size)
        if size == 0 || head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: try await io.loadFile(path: path.string, context: context))
    }

    /// One `bytes=` range of RFC 9110 (`a-b`, `a-`, `-n`), clamped to the file; nil when unsatisfiable or
    /// several ranges are asked (answered 416 rather than as a multipart body no player asks for).
    static func byteRange(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(","), size > 0 else { return nil }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix > 0 else { return nil }
            return max(0, size - suffix)...(size - 1)
        }
        guard let start = Int(parts[0]), start >= 0, start < size else { return nil }
        if parts[1].isEmpty { return start...(size - 1) }
        guard let end = Int(parts[1]), end >= start else { return nil }
        return start...min(end, size - 1)
    }

    /// Whether `file` is a regular file of at most 32 MB whose real path (symbolic links resolved) lies under
    /// a root's real path: a cover.jpg linked to a file elsewhere (/etc/passwd) is not sent.
    static func isContained(_ file: MediaPath, in roots: [MediaPath]) -> Bool {
        guard let resolved = realpath(file.string, nil) else { return false }
        defer { free(resolved) }
        let real = MediaPath(String(cString: resolved))
        var info = stat()
        guard stat(real.string, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= 32 << 20 else { return false }
        let realRoots = roots.compactMap { root -> MediaPath? in
            guard let r = realpath(root.string, nil) else { return nil }
            defer { free(r) }
            return MediaPath(String(cString: r))
        }
        return RootContainment.root(holding: real, among: realRoots) != nil
    }

    static let coverNames = ["cover.jpg", "folder.jpg", "front.jpg", "cover.png", "folder.png", "front.png", "album.jpg"]

    /// The cover of a song (its folder's cover file, else its embedded picture), an album (its first song's)
    /// or a folder (its cover file, else its first song's); with `size`, scaled so its longest side is `size`
    /// pixels (ImageScaler, through the disk cache; never enlarged; a picture FFmpeg cannot decode is sent as it is).
    func coverArt() async throws -> Response {
        let catalog = server.catalog
        let view = catalog.view
        let id = try parameters.required("id")
        var directory: MediaPath?
        var item: Int32?
        if let song = catalog.item(id: id) {
            item = song
        } else if let album = catalog.albumByID[id] {
            item = catalog.albums[album].items.first
        } else if let artist = catalog.artistByID[id], let album = catalog.artists[artist].albums.first {
            item = catalog.albums[album].items.first
        } else if let folder = catalog.directoryByID[id] {
            directory = view.directories[Int(folder)].path
            item = view.directories[Int(folder)].subtree.first
        } else {
            throw SubsonicError.notFound("Cover art \(id)")
        }
        let songPath = item.map { view.paths[Int($0)] }
        let folder = directory ?? songPath?.directory
        let roots = view.roots
        let size = try parameters.int("size", 0)
        let cache = server.covers
        let picture: (bytes: [UInt8], type: String)? = try await server.transcoding.threads.runIfActive {
            var found: (bytes: [UInt8], type: String, source: String)?
            if let folder {
                for name in Self.coverNames {
                    let candidate = folder.appending(MediaPath(name))
                    guard Self.isContained(candidate, in: roots) else { continue }
                    if let data = FileManager.default.contents(atPath: candidate.string), !data.isEmpty {
                        found = (Array(data), Self.contentType(candidate.fileExtension.lowercased()), candidate.string)
                        break
                    }
                }
            }
            if found == nil, let songPath, let embedded = EmbeddedPicture.read(songPath) {
                found = (embedded.data, embedded.mimeType ?? "image/jpeg", songPath.string)
            }
            guard let found else { return nil }
            guard size > 0, let scaled = try? cache.image(source: found.source, size: size, scale: {
                try ImageScaler.scaled(found.bytes, longestSide: size)
            }) else { return (found.bytes, found.type) }
            return (scaled.bytes, scaled.mimeType)
        }
        guard let picture else { throw SubsonicError.notFound("Cover art \(id)") }
        var headers = HTTPFields()
        headers[.contentType] = picture.type
        headers[.contentLength] = String(picture.bytes.count)
        headers[.cacheControl] = "max-age=86400"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: picture.bytes)))
    }
}
