@testable import DLNAServer

extension SOAPValue {
    /// The value as a control point reads it from the answer: text as it is, escaped bytes (a Browse's
    /// `Result`) with XML's entities and character references read back by the server's own SOAP reader.
    var read: String {
        switch self {
        case .text(let text): return text
        case .escaped(let page):
            var out: [UInt8] = []
            guard page.withBytes({ SOAPEnvelopeReader.decode($0[...], into: &out) }) else { return "<not well-formed>" }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
