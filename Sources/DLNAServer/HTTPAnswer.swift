import Library
import NIOCore
import NIOHTTP1
import NIOPosix

/// What the server answers one HTTP request with: bytes, or a run of a file (sent by sendfile).
enum HTTPAnswer {
    /// Bytes in the buffer they are sent from (a SOAP answer is written into it: no copy of the page).
    case bytes(HTTPResponseStatus, [(String, String)], ByteBuffer)
    /// The file's handle (closed once sent), the byte range, and whether only the head goes (HEAD).
    case file(HTTPResponseStatus, [(String, String)], NIOFileHandle, Range<Int>, headOnly: Bool)
    /// A transcode, sent chunked as it is made (each chunk made on one of the slots' threads), its slot given
    /// back at the end or when the client goes.
    case transcode([(String, String)], TranscodeSession, NIOThreadPool)
    /// An answer made on `pool`'s thread, not the answering one (a video's first still: tens of
    /// milliseconds of decoding, which would hold every Browse queued behind it).
    case later(NIOThreadPool, @Sendable () -> HTTPAnswer)

    static func text(_ status: HTTPResponseStatus, _ text: String, type: String = "text/plain; charset=utf-8") -> HTTPAnswer {
        .bytes(status, [("Content-Type", type)], ByteBuffer(string: text))
    }

    static func xml(_ text: String, status: HTTPResponseStatus = .ok) -> HTTPAnswer { xml(bytes: ByteBuffer(string: text), status: status) }

    static func xml(bytes: ByteBuffer, status: HTTPResponseStatus = .ok) -> HTTPAnswer {
        .bytes(status, [("Content-Type", "text/xml; charset=\"utf-8\"")], bytes)
    }

    /// A header-only answer.
    static func empty(_ status: HTTPResponseStatus, _ headers: [(String, String)]) -> HTTPAnswer { .bytes(status, headers, ByteBuffer()) }
}

/// One request as read: its head and (bounded) body.
struct HTTPRequest: Sendable {
    var method: HTTPMethod
    var uri: String
    var headers: HTTPHeaders
    var body: [UInt8]
    /// The address the client reached (for URLs in answers).
    var local: String
    var remote: SocketAddress?
    /// For a GET of `/transcode/…`: the transcoding slot taken for it (nil: none was free).
    var transcodeSlot: TranscodeSlots.Slot?
    /// A ContentDirectory call, once read on the event loop (`DLNAServer.answerOnLoop`): one it leaves to
    /// the pool (a Search, a sorted or large Browse) is not read again there.
    var call: SOAPCall?

    /// The URI up to its query (found by its byte: by Character, the search was 4% of a Browse's instructions).
    var path: String { uri.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(uri[..<$0]) } ?? uri }
}
