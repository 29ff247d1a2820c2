import Foundation
import Library
import MediaModel
import NIOCore

/// A SOAP action call (UPnP Device Architecture 1.0, 3.2): the action element in the envelope's body and
/// its arguments, each a child element with text; and the answers, including UPnP's error faults.
struct SOAPCall: Sendable {
    var action: String
    var arguments: SOAPArguments

    /// Parses an envelope; nil when it is not one (the caller answers 401 "Invalid Action").
    static func parse(_ body: [UInt8]) -> SOAPCall? {
        SOAPEnvelopeReader.read(body).map { SOAPCall(action: $0.action, arguments: $0.arguments) }
    }

    /// An action's response with its out arguments, in order, in the buffer it is sent from: a Browse's
    /// `Result` (a whole DIDL-Lite page) comes already escaped (`DIDLOutput`) and is copied once, into it.
    static func response(service: String, action: String, _ arguments: [(String, SOAPValue)]) -> ByteBuffer {
        // Room for a Browse's whole page at once (it is most of the answer), not grown by doubling.
        var out = ByteBuffer()
        out.reserveCapacity(arguments.reduce(512) { room, argument in
            if case .escaped(let page) = argument.1 { return room + page.count }
            return room + 32
        })
        // The markup around the page gathered as bytes and written in two runs: interpolated strings, or a
        // buffer write for each piece, cost more than copying the page.
        var markup: [UInt8] = []
        markup.reserveCapacity(512)
        markup.append(utf8: envelopeStart)
        markup.append(utf8: "<u:"); markup.append(utf8: action); markup.append(utf8: "Response xmlns:u=\""); markup.append(utf8: service); markup.append(utf8: "\">")
        for (name, value) in arguments {
            markup.append(utf8: "<"); markup.append(utf8: name); markup.append(utf8: ">")
            switch value {
            case .text(let value): XMLText.escape(value, into: &markup)
            case .escaped(let page):
                out.writeBytes(markup)
                markup.removeAll(keepingCapacity: true)
                page.withBytes { out.writeBytes($0) }
            }
            markup.append(utf8: "</"); markup.append(utf8: name); markup.append(utf8: ">")
        }
        markup.append(utf8: "</u:"); markup.append(utf8: action); markup.append(utf8: "Response>")
        markup.append(utf8: envelopeEnd)
        out.writeBytes(markup)
        return out
    }

    static func fault(_ error: UPnPError) -> String {
        envelope("<s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail>"
                 + "<UPnPError xmlns=\"urn:schemas-upnp-org:control-1-0\"><errorCode>\(error.code)</errorCode>"
                 + "<errorDescription>\(XML.escape(error.text))</errorDescription></UPnPError></detail></s:Fault>")
    }

    private static let envelopeStart = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" "
        + "s:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\"><s:Body>"
    private static let envelopeEnd = "</s:Body></s:Envelope>"

    private static func envelope(_ body: String) -> String { envelopeStart + body + envelopeEnd }
}

/// UPnP's action errors (Device Architecture 3.2.2; ContentDirectory:1 2.4.x).
struct UPnPError: Error, Sendable {
    var code: Int
    var text: String

    static let invalidAction = UPnPError(code: 401, text: "Invalid Action")
    static func invalidArguments(_ why: String) -> UPnPError { UPnPError(code: 402, text: "Invalid Args: \(why)") }
    static let actionFailed = UPnPError(code: 501, text: "Action Failed")
    static let noSuchObject = UPnPError(code: 701, text: "No such object")
    static let noSuchContainer = UPnPError(code: 710, text: "No such container")
    static func badSearchCriteria(_ why: String) -> UPnPError { UPnPError(code: 708, text: "Unsupported or invalid search criteria: \(why)") }
    static let badSortCriteria = UPnPError(code: 709, text: "Unsupported or invalid sort criteria")
    static let invalidConnection = UPnPError(code: 706, text: "Invalid connection reference")
}
