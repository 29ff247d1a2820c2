// nio-floor: servers that do nothing but answer, on swift-nio as mlib's servers are — what the framework
// alone costs a request, against which mlib's own work and the C peers are measured (issue 50's MPD line,
// issue 43's walk).
//
//   nio-floor http ANSWERS PORT   NIOHTTP1's server pipeline (as `mlib serve --dlna` configures it) answering
//                                 the n-th request of a connection with the n-th answer of ANSWERS (the format
//                                 of `dlna-walk.py --record`, which dlna-floor.c replays without NIO);
//   nio-floor http-bare ANSWERS PORT  the same through NIOHTTP1's codec alone: no pipelining assistance, no
//                                 protocol error handler, no outbound header validation (what those three cost);
//   nio-floor lines ANSWER PORT   a line protocol (as `mlib serve`'s MPD port: one read, one flush a read)
//                                 answering every line with the bytes of the file ANSWER; a greeting line first.
//
// Nothing is computed per request: the answers are made whole at start.
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

/// The answers of a recorded walk: each a 4-byte big-endian length, then the body.
func recordedAnswers(_ path: String) -> [ByteBuffer] {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    let bytes = [UInt8](data)
    var answers: [ByteBuffer] = []
    var at = 0
    while at + 4 <= bytes.count {
        let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        at += 4
        guard at + length <= bytes.count else { break }
        answers.append(ByteBuffer(bytes: bytes[at..<at + length]))
        at += length
    }
    if answers.isEmpty { fail("\(path): no answers") }
    return answers
}

/// The n-th request of a connection answered with the n-th answer.
final class ReplayHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let answers: [ByteBuffer]
    var next = 0
    init(answers: [ByteBuffer]) { self.answers = answers }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        let body = answers[next % answers.count]
        next += 1
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/xml; charset=\"utf-8\"")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

/// Every line answered with `answer`; the answers of one read flushed once.
final class LineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let answer: ByteBuffer
    var pending = false
    init(answer: ByteBuffer) { self.answer = answer }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "OK MPD 0.23.5\n")), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        // Partial lines are not kept: the clients of this floor send whole lines, one a write.
        for byte in buffer.readableBytesView where byte == UInt8(ascii: "\n") {
            context.write(wrapOutboundOut(answer), promise: nil)
            pending = true
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if pending { pending = false; context.flush() }
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let port = Int(arguments[3]) else { fail("usage: nio-floor http|http-bare ANSWERS PORT | nio-floor lines ANSWER PORT") }
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let bootstrap: ServerBootstrap
switch arguments[1] {
case "http", "http-bare":
    let answers = recordedAnswers(arguments[2])
    let bare = arguments[1] == "http-bare"
    bootstrap = ServerBootstrap(group: group)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                    withPipeliningAssistance: !bare, withErrorHandling: !bare, withOutboundHeaderValidation: !bare)
                try channel.pipeline.syncOperations.addHandler(ReplayHandler(answers: answers))
            }
        }
case "lines":
    guard let data = FileManager.default.contents(atPath: arguments[2]) else { fail("cannot read \(arguments[2])") }
    let answer = ByteBuffer(bytes: [UInt8](data))
    bootstrap = ServerBootstrap(group: group)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(LineHandler(answer: answer)) }
        }
default:
    fail("usage: nio-floor http|http-bare ANSWERS PORT | nio-floor lines ANSWER PORT")
}
let channel = try bootstrap.bind(host: "0.0.0.0", port: port).wait()
try channel.closeFuture.wait()
