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
        let file = try await server.openFile(of: item, catalog, id: id)
        let suffix = catalog.view.paths[Int(item)].fileExtension.lowercased()
        if let transcode = try transcodeRequest(method: method, item: item, suffix: suffix) {
            return try await transcodedStream(file: file, format: transcode.format, bitRate: transcode.bitRate)
        }
        return server.fileResponse(file, suffix: suffix, request: request)
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

    /// The cover of a song (its folder's cover file, else its embedded picture), an album (its first song's)
    /// or a folder (its cover file, else its first song's); with `size`, scaled so its longest side is `size`
    /// pixels (ImageScaler, through the disk cache; never enlarged; a picture FFmpeg cannot decode is sent as it is).
    /// Without a picture: `Placeholder.cover`, at `size` too.
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
        // Under `serve --all-hosts` the song may be another host's: the cover file and the picture of this
        // host's file at its path are another file's (the rule `stream` follows).
        if let item {
            let persistentID = view.ids[Int(item)]
            guard try await server.offLoop({ [library = server.library] in try library.reachesFile(ofItem: persistentID) }) else {
                throw SubsonicError.notFound("Cover art \(id) (its song is on another host)")
            }
        }
        let songPath = item.map { view.paths[Int($0)] }
        let folder = directory ?? songPath?.directory
        let roots = view.roots
        let size = try parameters.int("size", 0, in: 0...10_000)   // never enlarged: a larger size is the picture as it is
        let cache = server.covers, covers = server.library.covers
        // An album or song without a picture gets the placeholder (`placeholder` true), as Navidrome sends:
        // clients wait for an image here (Sublime Music showed a spinner for ever on the JSON error). An
        // unknown id stays error 70.
        let sent: (bytes: [UInt8], type: String, placeholder: Bool) = try await server.transcoding.threads.runIfActive {
            let found = folder.flatMap { covers.folderCover(in: $0, roots: roots) } ?? songPath.flatMap { covers.embeddedPicture(of: $0, roots: roots) }
            guard let found else { return (Placeholder.cover(size: size), "image/png", true) }
            guard size > 0, let scaled = try? cache.image(source: found.source.string, size: size, scale: {
                try ImageScaler.scaled(found.bytes, longestSide: size)
            }) else { return (found.bytes, found.mimeType, false) }
            return (scaled.bytes, scaled.mimeType, false)
        }
        var headers = HTTPFields()
        headers[.contentType] = sent.type
        headers[.contentLength] = String(sent.bytes.count)
        // A placeholder is kept for an hour only: a cover added later shows the same day.
        headers[.cacheControl] = sent.placeholder ? "max-age=3600" : "max-age=86400"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: sent.bytes)))
    }
}

// The original file of a song, shared by `stream`/`download` and a share's public link (SharePage.swift).
extension SubsonicServer {
    /// The song's file, opened once by the containment rule every front uses (what is sent or transcoded is
    /// read from this descriptor, so a file swapped for a link after the check is never what is sent);
    /// error 70 when it is another host's (under `serve --all-hosts` this host's file at its path is another
    /// one) or cannot be opened.
    func openFile(of item: Int32, _ catalog: Catalog, id: String) async throws -> ContainedFile {
        let path = catalog.view.paths[Int(item)]
        let persistentID = catalog.view.ids[Int(item)]
        guard try await offLoop({ [library] in try library.reachesFile(ofItem: persistentID) }) else {
            throw SubsonicError.notFound("File of song \(id) (it is on another host)")
        }
        let roots = catalog.view.roots
        guard let file = try? await transcoding.threads.runIfActive({ try FileContainment(roots: roots).open(path) }) else {
            throw SubsonicError.notFound("File of song \(id)")
        }
        return file
    }

    /// The opened file as it is, with HTTP Range (one range; 416 for one outside the file); HEAD gets the
    /// headers only.
    func fileResponse(_ file: ContainedFile, suffix: String, request: Request) -> Response {
        let size = file.size
        var headers = HTTPFields()
        headers[.contentType] = Call.contentType(suffix)
        headers[.acceptRanges] = "bytes"
        let head = request.method == .head   // the headers a GET would get, no bytes read
        if let header = request.headers[.range] {
            guard let range = Call.byteRange(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            if head { return Response(status: .partialContent, headers: headers) }
            return Response(status: .partialContent, headers: headers, body: fileBody(file, range: range))
        }
        headers[.contentLength] = String(size)
        if size == 0 || head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: fileBody(file, range: 0...(size - 1)))
    }

    /// `range` of the opened file, read in 128 KiB chunks on the transcoding threads (never the event loop)
    /// and sent as each is read.
    private func fileBody(_ file: ContainedFile, range: ClosedRange<Int>) -> ResponseBody {
        let threads = transcoding.threads
        return ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            while offset <= range.upperBound {
                let count = min(128 << 10, range.upperBound + 1 - offset)
                let at = offset
                let bytes = try await threads.runIfActive { try file.read(at: at, count: count) }
                if bytes.isEmpty { break }   // the file shrank: the client sees a short body, as with any changing file
                try await writer.write(ByteBuffer(bytes: bytes))
                offset += bytes.count
            }
            try await writer.finish(nil)
        }
    }
}
