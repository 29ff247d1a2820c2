import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// GENA (UPnP Device Architecture 1.0, section 4): SUBSCRIBE, renewal and UNSUBSCRIBE by SID with a
/// timeout, the initial event after a subscription, and a NOTIFY of `SystemUpdateID` and
/// `ContainerUpdateIDs` to every ContentDirectory subscriber when the view changes. Callbacks must be on the
/// subscriber's own address (the server does not send events to a third host on anyone's word).
final class Eventing: Sendable {
    struct Subscription: Sendable {
        var service: String
        var callback: (host: String, port: Int, path: String)
        var expires: Date
        var sequence: UInt32
    }

    static let maximumTimeout = 1800
    static let maximumSubscriptions = 256
    private let group: EventLoopGroup
    private let subscriptions = Mutex<[String: Subscription]>([:])
    private let updateID = Mutex<UInt32>(1)

    init(group: EventLoopGroup) { self.group = group }

    func stop() { subscriptions.withLock { $0 = [:] } }

    func answer(_ request: HTTPRequest, service: DeviceDescription.Service, tree: MediaTree) -> HTTPAnswer {
        let headers = request.headers
        let sid = headers.first(name: "SID")
        if request.method == .UNSUBSCRIBE {
            guard let sid, subscriptions.withLock({ $0.removeValue(forKey: sid) }) != nil else { return .text(.preconditionFailed, "no such subscription\n") }
            return .empty(.ok, [])
        }
        let timeout = min(Self.maximumTimeout, headers.first(name: "TIMEOUT").flatMap { t in
            t.lowercased().hasPrefix("second-") ? Int(t.dropFirst(7)) : nil } ?? Self.maximumTimeout)
        if let sid {
            guard headers.first(name: "CALLBACK") == nil, headers.first(name: "NT") == nil else { return .text(.badRequest, "SID with CALLBACK or NT\n") }
            let renewed = subscriptions.withLock { s -> Bool in
                guard s[sid] != nil else { return false }
                s[sid]!.expires = Date().addingTimeInterval(Double(timeout))
                return true
            }
            return renewed ? .empty(.ok, [("SID", sid), ("TIMEOUT", "Second-\(timeout)")]) : .text(.preconditionFailed, "no such subscription\n")
        }
        guard headers.first(name: "NT") == "upnp:event", let callbackText = headers.first(name: "CALLBACK"),
              let callback = Self.callback(callbackText), let peer = request.remote?.ipAddress, callback.host == peer
        else { return .text(.preconditionFailed, "CALLBACK (on the subscriber's own address) and NT: upnp:event are needed\n") }
        let newSID = "uuid:" + UUID().uuidString.lowercased()
        let added = subscriptions.withLock { s -> Bool in
            let now = Date()
            s = s.filter { $0.value.expires > now }
            guard s.count < Self.maximumSubscriptions else { return false }
            s[newSID] = Subscription(service: service.name, callback: callback, expires: now.addingTimeInterval(Double(timeout)), sequence: 0)
            return true
        }
        guard added else { return .text(.serviceUnavailable, "too many subscriptions\n") }
        // The initial event follows the answer (the subscriber must know its SID first).
        let body = Self.propertySet(Self.initialValues(service, updateID: updateID.withLock { $0 }))
        group.next().scheduleTask(in: .milliseconds(100)) { [weak self] in self?.send(sid: newSID, body: body) }
        return .empty(.ok, [("SID", newSID), ("TIMEOUT", "Second-\(timeout)")])
    }

    /// The view changed: every ContentDirectory subscriber hears the new update ids.
    func changed(systemUpdateID: UInt32) {
        updateID.withLock { $0 = systemUpdateID }
        let now = Date()
        let sids = subscriptions.withLock { s in
            s = s.filter { $0.value.expires > now }
            return s.filter { $0.value.service == DeviceDescription.contentDirectory.name }.map(\.key)
        }
        // Which containers changed is not tracked yet: the top ones are said to have, with the new id.
        let containers = [ObjectID.root, ObjectID.music, ObjectID.video, ObjectID.folders].map { (id: String) -> String in "\(id),\(systemUpdateID)" }.joined(separator: ",")
        let body = Self.propertySet([("SystemUpdateID", String(systemUpdateID)), ("ContainerUpdateIDs", containers)])
        for sid in sids { send(sid: sid, body: body) }
    }

    static func initialValues(_ service: DeviceDescription.Service, updateID: UInt32) -> [(String, String)] {
        switch service.name {
        case DeviceDescription.contentDirectory.name: return [("SystemUpdateID", String(updateID)), ("ContainerUpdateIDs", "")]
        case DeviceDescription.connectionManager.name:
            return [("SourceProtocolInfo", MediaProfile.served.map(\.protocolInfo).joined(separator: ",")), ("SinkProtocolInfo", ""), ("CurrentConnectionIDs", "0")]
        default:
            return ["AuthorizationGrantedUpdateID", "AuthorizationDeniedUpdateID", "ValidationSucceededUpdateID", "ValidationRevokedUpdateID"].map { ($0, "0") }
        }
    }

    static func propertySet(_ values: [(String, String)]) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><e:propertyset xmlns:e=\"urn:schemas-upnp-org:event-1-0\">"
            + values.map { (name: String, value: String) -> String in "<e:property><\(name)>\(XML.escape(value))</\(name)></e:property>" }.joined() + "</e:propertyset>"
    }

    /// The first `<http://host:port/path>` of a CALLBACK header.
    static func callback(_ header: String) -> (host: String, port: Int, path: String)? {
        guard let open = header.firstIndex(of: "<"), let close = header[open...].firstIndex(of: ">"),
              let url = URL(string: String(header[header.index(after: open)..<close])), url.scheme == "http", let host = url.host else { return nil }
        let path = url.path.isEmpty ? "/" : url.path + (url.query.map { "?" + $0 } ?? "")
        return (host, url.port ?? 80, path)
    }

    /// One NOTIFY over a new connection (the subscriber's answer is read and dropped); SEQ counts per SID.
    private func send(sid: String, body: String) {
        guard let (subscription, sequence) = subscriptions.withLock({ s -> (Subscription, UInt32)? in
            guard let found = s[sid] else { return nil }
            s[sid]!.sequence = found.sequence == UInt32.max ? 1 : found.sequence + 1
            return (found, found.sequence)
        }) else { return }
        let callback = subscription.callback
        let text = "NOTIFY \(callback.path) HTTP/1.1\r\nHOST: \(callback.host):\(callback.port)\r\nCONTENT-TYPE: text/xml; charset=\"utf-8\"\r\n"
            + "NT: upnp:event\r\nNTS: upnp:propchange\r\nSID: \(sid)\r\nSEQ: \(sequence)\r\nCONTENT-LENGTH: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        ClientBootstrap(group: group)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Discard()) } }
            .connect(host: callback.host, port: callback.port)
            .whenSuccess { channel in
                channel.writeAndFlush(channel.allocator.buffer(string: text), promise: nil)
                // A subscriber that does not answer or close is left after 10 s.
                channel.eventLoop.scheduleTask(in: .seconds(10)) { channel.close(promise: nil) }
            }
    }

    /// Reads the subscriber's answer and closes once it has come.
    private final class Discard: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        func channelRead(context: ChannelHandlerContext, data: NIOAny) { context.close(promise: nil) }
    }
}
