/// ConnectionManager:1 for a server without connection set-up (PrepareForConnection is optional): one
/// connection, 0, always there; and Microsoft's registrar as minidlna answers it (everyone authorized).
enum ConnectionManager {
    static func call(_ call: SOAPCall) throws -> [(String, String)] {
        switch call.action {
        case "GetProtocolInfo":
            return [("Source", MediaProfile.served.map(\.protocolInfo).joined(separator: ",")), ("Sink", "")]
        case "GetCurrentConnectionIDs":
            return [("ConnectionIDs", "0")]
        case "GetCurrentConnectionInfo":
            guard let id = call.arguments["ConnectionID"], let number = Int(id) else { throw UPnPError.invalidArguments("ConnectionID must be an integer") }
            guard number == 0 else { throw UPnPError.invalidConnection }
            return [("RcsID", "-1"), ("AVTransportID", "-1"), ("ProtocolInfo", ""), ("PeerConnectionManager", ""),
                    ("PeerConnectionID", "-1"), ("Direction", "Output"), ("Status", "OK")]
        default: throw UPnPError.invalidAction
        }
    }
}

enum MediaReceiverRegistrar {
    static func call(_ call: SOAPCall) throws -> [(String, String)] {
        switch call.action {
        case "IsAuthorized", "IsValidated": return [("Result", "1")]
        case "RegisterDevice": return [("RegistrationRespMsg", "")]
        default: throw UPnPError.invalidAction
        }
    }
}
