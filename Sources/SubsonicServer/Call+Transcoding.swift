import Foundation
import Hummingbird
import Library
import MediaDecode
import MediaModel
import NIOCore

// Transcoding: `stream?format=opus|mp3&maxBitRate=N&timeOffset=S`, decoded and encoded in this process
// (MediaDecode's Transcoder) and sent as it is produced, chunked, on the server's transcoding threads.
extension Call {
    /// What a `stream` request asks to be sent in place of the file, or nil for the file itself: `format=raw`,
    /// `download`, an unknown format, or the file's own format within the asked bit rate (a needless re-encode
    /// would only lose quality). `maxBitRate` alone (kb/s, 0 = no limit) transcodes to Opus when the file's
    /// rate is above it, as Navidrome does.
    func transcodeRequest(method: String, item: Int32, suffix: String) throws -> (format: TranscodeFormat, bitRate: Int?)? {
        guard method == "stream" else { return nil }
        let maxBitRate = try parameters.bitRate("maxBitRate")
        let fileBitRate = server.catalog.int(item, Catalog.Slot.bitRate)
        let overLimit = maxBitRate > 0 && (fileBitRate.map { $0 > maxBitRate } ?? true)
        let asked = parameters["format"].map { $0.lowercased() }
        let format: TranscodeFormat
        switch asked {
        case nil, "": guard overLimit else { return nil }; format = .opus
        case "opus", "ogg", "oga": format = .opus
        case "mp3": format = .mp3
        default: return nil   // "raw" and formats mlib does not make: the original, which the song's suffix says
        }
        let sameFormat = format == .mp3 ? suffix == "mp3" : suffix == "opus"
        if sameFormat && !overLimit { return nil }
        return (format, maxBitRate > 0 ? maxBitRate * 1000 : nil)
    }

    /// The transcoded stream: opened on a transcoding thread (a file that does not decode is error 0 in the
    /// envelope), then sent in chunks as the encoder produces them. No `Content-Length` (its length is
    /// not known before the end) and no `Accept-Ranges`. When every transcoding slot is busy the answer is
    /// 503 with `Retry-After`, so the CPU stays bounded whatever the clients ask.
    func transcodedStream(file: ContainedFile, format: TranscodeFormat, bitRate: Int?) async throws -> Response {
        if request.method == .head {
            // What a GET would send, without transcoding anything.
            var headers = HTTPFields()
            headers[.contentType] = format.contentType
            return Response(status: .ok, headers: headers)
        }
        guard let slot = await server.transcoding.acquire(user: user.name, waitingUpTo: .seconds(2)) else {
            var headers = HTTPFields()
            headers[.retryAfter] = "5"
            return Response(status: .serviceUnavailable, headers: headers)
        }
        let startAt = try parameters.seconds("timeOffset")
        let session: TranscodeSession
        do {
            session = try await server.transcoding.threads.runIfActive {
                // FFmpeg opens the descriptor's own file (`/proc/self/fd/N`), never the path again.
                TranscodeSession(try Transcoder(path: file.procPath, format: format, bitRate: bitRate, startAt: startAt), slot: slot)
            }
        } catch {
            slot.release()   // now, not when the thread pool frees the closure: the client's next request may be on its way
            // A file this FFmpeg cannot decode ("this FFmpeg cannot decode ac-4"): the reason, without the
            // descriptor's path (/proc/self/fd/N), which means nothing to the client.
            if let error = error as? DecodeError { throw SubsonicError.generic(error.message) }
            throw error
        }
        var headers = HTTPFields()
        headers[.contentType] = format.contentType
        headers[.cacheControl] = "no-cache"
        // `estimateContentLength=true` (Subsonic 1.8.0): players that need a length before playing get one.
        let length = try parameters.bool("estimateContentLength", false) ? session.estimatedLength : nil
        if let length { headers[.contentLength] = String(length) }
        let threads = server.transcoding.threads
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // A client that goes away makes the write throw (or cancels the task): the loop ends and the
            // slot is given back. It is given back before the end is sent, so a client's next request
            // (the next song, on the same connection) never finds it still taken.
            defer { session.close() }
            var sent = 0
            while !Task.isCancelled, let bytes = try await threads.runIfActive({ try session.read() }) {
                if bytes.isEmpty { continue }
                // With an estimated length, never more than it said (HTTP/1.1 framing): the estimate has a
                // margin (`estimatedLength`), so this cuts only a stream far above its bit rate.
                let part = length.map { bytes.prefix(max(0, $0 - sent)) } ?? bytes[...]
                if !part.isEmpty { try await writer.write(ByteBuffer(bytes: part)) }
                sent += part.count
            }
            session.close()
            // …and never less: the rest is zeros, which Ogg and MP3 demuxers skip as junk after the last page
            // or frame.
            if let length, sent < length, !Task.isCancelled {
                try await writer.write(ByteBuffer(repeating: 0, count: length - sent))
            }
            try await writer.finish(nil)
        })
    }
}
