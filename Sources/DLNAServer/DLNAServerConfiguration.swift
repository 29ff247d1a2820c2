import Foundation

/// What `mlib serve --dlna` is told: where to listen and announce, the name TVs show, and the limits.
public struct DLNAServerConfiguration: Sendable {
    /// Interfaces (by name, e.g. `eth0`) to announce on and serve: SSDP answers only requests from their
    /// subnets, and HTTP listens on their addresses only. Empty: every IPv4 interface that is up, but loopback.
    public var interfaces: [String] = []
    /// The HTTP port for descriptions, control and streams (0: any free port).
    public var port: Int = 8200
    /// The name TVs list (default: "mlib on HOSTNAME").
    public var friendlyName: String?
    /// Where the device's UUID is kept (a TV remembers the server by it): written once, read ever after.
    public var uuidFile: String?
    /// SSDP's `max-age`; alive notices go out every third of it (UDP may lose one).
    public var maxAge: Int = 1800
    /// HTTP connections at once; one more is closed at once.
    public var maximumConnections: Int = 64
    /// A request's head and body must arrive within this, and an idle kept-alive connection is closed after it.
    public var readTimeout: TimeAmount = .seconds(10)
    /// An answer the client takes nothing of for this long is dropped with its connection; one it keeps
    /// reading, however slowly (a TV at a stream's pace), is not.
    public var writeTimeout: TimeAmount = .seconds(30)
    /// Most bytes of a request body (a SOAP envelope is a few hundred).
    public var maximumRequestBytes: Int = 64 << 10
    /// How often the view is looked at for changes (SystemUpdateID moves with each new snapshot).
    public var checkInterval: Duration = .seconds(1)
    /// Transcoded streams (LPCM, MP3) at once, each on a thread of its own; one more is answered 503 with
    /// Retry-After after waiting 2 s for a slot.
    public var maximumTranscodes = max(2, ProcessInfo.processInfo.activeProcessorCount)

    public init() {}
}

import NIOCore
