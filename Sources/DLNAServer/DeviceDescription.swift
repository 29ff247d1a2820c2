import Foundation
import Library

/// The MediaServer:1 device description and its services' SCPDs (UPnP Device Architecture 1.0, 2.1 and
/// 2.3; the service templates of ContentDirectory:1 and ConnectionManager:1; Microsoft's
/// X_MS_MediaReceiverRegistrar:1 for Xbox and Windows renderers, as minidlna describes it).
enum DeviceDescription {
    static let deviceType = "urn:schemas-upnp-org:device:MediaServer:1"

    struct Service: Sendable {
        var name: String
        var type: String
        var id: String
        var actions: [(name: String, arguments: [(name: String, out: Bool, variable: String)])]
        /// Name, data type, whether evented, allowed values.
        var variables: [(name: String, type: String, evented: Bool, allowed: [String])]
        var scpdPath: String { "/\(name)/scpd.xml" }
        var controlPath: String { "/\(name)/control" }
        var eventPath: String { "/\(name)/event" }
    }

    static let contentDirectory = Service(
        name: "ContentDirectory", type: "urn:schemas-upnp-org:service:ContentDirectory:1", id: "urn:upnp-org:serviceId:ContentDirectory",
        actions: [
            ("GetSearchCapabilities", [("SearchCaps", true, "SearchCapabilities")]),
            ("GetSortCapabilities", [("SortCaps", true, "SortCapabilities")]),
            ("GetSystemUpdateID", [("Id", true, "SystemUpdateID")]),
            ("Browse", [("ObjectID", false, "A_ARG_TYPE_ObjectID"), ("BrowseFlag", false, "A_ARG_TYPE_BrowseFlag"),
                        ("Filter", false, "A_ARG_TYPE_Filter"), ("StartingIndex", false, "A_ARG_TYPE_Index"),
                        ("RequestedCount", false, "A_ARG_TYPE_Count"), ("SortCriteria", false, "A_ARG_TYPE_SortCriteria"),
                        ("Result", true, "A_ARG_TYPE_Result"), ("NumberReturned", true, "A_ARG_TYPE_Count"),
                        ("TotalMatches", true, "A_ARG_TYPE_Count"), ("UpdateID", true, "A_ARG_TYPE_UpdateID")]),
            ("Search", [("ContainerID", false, "A_ARG_TYPE_ObjectID"), ("SearchCriteria", false, "A_ARG_TYPE_SearchCriteria"),
                        ("Filter", false, "A_ARG_TYPE_Filter"), ("StartingIndex", false, "A_ARG_TYPE_Index"),
                        ("RequestedCount", false, "A_ARG_TYPE_Count"), ("SortCriteria", false, "A_ARG_TYPE_SortCriteria"),
                        ("Result", true, "A_ARG_TYPE_Result"), ("NumberReturned", true, "A_ARG_TYPE_Count"),
                        ("TotalMatches", true, "A_ARG_TYPE_Count"), ("UpdateID", true, "A_ARG_TYPE_UpdateID")]),
        ],
        variables: [
            ("SearchCapabilities", "string", false, []), ("SortCapabilities", "string", false, []),
            ("SystemUpdateID", "ui4", true, []), ("ContainerUpdateIDs", "string", true, []),
            ("A_ARG_TYPE_ObjectID", "string", false, []), ("A_ARG_TYPE_Result", "string", false, []),
            ("A_ARG_TYPE_SearchCriteria", "string", false, []),
            ("A_ARG_TYPE_BrowseFlag", "string", false, ["BrowseMetadata", "BrowseDirectChildren"]),
            ("A_ARG_TYPE_Filter", "string", false, []), ("A_ARG_TYPE_SortCriteria", "string", false, []),
            ("A_ARG_TYPE_Index", "ui4", false, []), ("A_ARG_TYPE_Count", "ui4", false, []), ("A_ARG_TYPE_UpdateID", "ui4", false, []),
        ])

    static let connectionManager = Service(
        name: "ConnectionManager", type: "urn:schemas-upnp-org:service:ConnectionManager:1", id: "urn:upnp-org:serviceId:ConnectionManager",
        actions: [
            ("GetProtocolInfo", [("Source", true, "SourceProtocolInfo"), ("Sink", true, "SinkProtocolInfo")]),
            ("GetCurrentConnectionIDs", [("ConnectionIDs", true, "CurrentConnectionIDs")]),
            ("GetCurrentConnectionInfo", [("ConnectionID", false, "A_ARG_TYPE_ConnectionID"), ("RcsID", true, "A_ARG_TYPE_RcsID"),
                                          ("AVTransportID", true, "A_ARG_TYPE_AVTransportID"), ("ProtocolInfo", true, "A_ARG_TYPE_ProtocolInfo"),
                                          ("PeerConnectionManager", true, "A_ARG_TYPE_ConnectionManager"),
                                          ("PeerConnectionID", true, "A_ARG_TYPE_ConnectionID"), ("Direction", true, "A_ARG_TYPE_Direction"),
                                          ("Status", true, "A_ARG_TYPE_ConnectionStatus")]),
        ],
        variables: [
            ("SourceProtocolInfo", "string", true, []), ("SinkProtocolInfo", "string", true, []),
            ("CurrentConnectionIDs", "string", true, []),
            ("A_ARG_TYPE_ConnectionStatus", "string", false, ["OK", "ContentFormatMismatch", "InsufficientBandwidth", "UnreliableChannel", "Unknown"]),
            ("A_ARG_TYPE_ConnectionManager", "string", false, []), ("A_ARG_TYPE_Direction", "string", false, ["Input", "Output"]),
            ("A_ARG_TYPE_ProtocolInfo", "string", false, []), ("A_ARG_TYPE_ConnectionID", "i4", false, []),
            ("A_ARG_TYPE_AVTransportID", "i4", false, []), ("A_ARG_TYPE_RcsID", "i4", false, []),
        ])

    static let registrar = Service(
        name: "X_MS_MediaReceiverRegistrar", type: "urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1",
        id: "urn:microsoft.com:serviceId:X_MS_MediaReceiverRegistrar",
        actions: [
            ("IsAuthorized", [("DeviceID", false, "A_ARG_TYPE_DeviceID"), ("Result", true, "A_ARG_TYPE_Result")]),
            ("IsValidated", [("DeviceID", false, "A_ARG_TYPE_DeviceID"), ("Result", true, "A_ARG_TYPE_Result")]),
            ("RegisterDevice", [("RegistrationReqMsg", false, "A_ARG_TYPE_RegistrationReqMsg"),
                                ("RegistrationRespMsg", true, "A_ARG_TYPE_RegistrationRespMsg")]),
        ],
        variables: [
            ("A_ARG_TYPE_DeviceID", "string", false, []), ("A_ARG_TYPE_Result", "int", false, []),
            ("A_ARG_TYPE_RegistrationReqMsg", "bin.base64", false, []), ("A_ARG_TYPE_RegistrationRespMsg", "bin.base64", false, []),
            ("AuthorizationGrantedUpdateID", "ui4", true, []), ("AuthorizationDeniedUpdateID", "ui4", true, []),
            ("ValidationSucceededUpdateID", "ui4", true, []), ("ValidationRevokedUpdateID", "ui4", true, []),
        ])

    static let services = [contentDirectory, connectionManager, registrar]

    static func device(uuid: String, friendlyName: String) -> String {
        let services = Self.services.map { s -> String in
            "<service><serviceType>\(s.type)</serviceType><serviceId>\(s.id)</serviceId><SCPDURL>\(s.scpdPath)</SCPDURL>"
                + "<controlURL>\(s.controlPath)</controlURL><eventSubURL>\(s.eventPath)</eventSubURL></service>"
        }.joined()
        let icons = DeviceIcons.all.map { icon -> String in
            "<icon><mimetype>image/png</mimetype><width>\(icon.size)</width><height>\(icon.size)</height><depth>24</depth><url>\(icon.path)</url></icon>"
        }.joined()
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <root xmlns="urn:schemas-upnp-org:device-1-0" xmlns:dlna="urn:schemas-dlna-org:device-1-0">\
            <specVersion><major>1</major><minor>0</minor></specVersion>\
            <device><deviceType>\(deviceType)</deviceType><friendlyName>\(XML.escape(friendlyName))</friendlyName>\
            <manufacturer>mlib</manufacturer><manufacturerURL>https://github.com/</manufacturerURL>\
            <modelDescription>mlib media library</modelDescription><modelName>mlib</modelName><modelNumber>1</modelNumber>\
            <serialNumber>\(uuid.prefix(8))</serialNumber><UDN>uuid:\(uuid)</UDN>\
            <dlna:X_DLNADOC>DMS-1.50</dlna:X_DLNADOC>\
            <iconList>\(icons)</iconList><serviceList>\(services)</serviceList></device></root>
            """
    }

    static func scpd(_ service: Service) -> String {
        let actions = service.actions.map { action -> String in
            let arguments = action.arguments.map { argument -> String in
                "<argument><name>\(argument.name)</name><direction>\(argument.out ? "out" : "in")</direction><relatedStateVariable>\(argument.variable)</relatedStateVariable></argument>"
            }.joined()
            return "<action><name>\(action.name)</name><argumentList>\(arguments)</argumentList></action>"
        }.joined()
        let variables = service.variables.map { v -> String in
            let allowed = v.allowed.isEmpty ? "" : "<allowedValueList>" + v.allowed.map { (value: String) -> String in "<allowedValue>\(value)</allowedValue>" }.joined() + "</allowedValueList>"
            return "<stateVariable sendEvents=\"\(v.evented ? "yes" : "no")\"><name>\(v.name)</name><dataType>\(v.type)</dataType>\(allowed)</stateVariable>"
        }.joined()
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <scpd xmlns="urn:schemas-upnp-org:service-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>\
            <actionList>\(actions)</actionList><serviceStateTable>\(variables)</serviceStateTable></scpd>
            """
    }
}

/// The device's icons (a plain square in mlib's blue: TVs show them in their source lists).
enum DeviceIcons {
    struct Icon: Sendable { var size: Int; var path: String; var png: [UInt8] }
    static let all: [Icon] = [
        Icon(size: 48, path: "/icons/48.png", png: decode("iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAIAAADYYG7QAAAAOklEQVR42u3OQQ0AAAgEoEtkM9sZ0BbOBxsBSPW8EiEhISEhISEhISEhISEhISEhISEhISEhISGhOwvu48em2Sn+BAAAAABJRU5ErkJggg==")),
        Icon(size: 120, path: "/icons/120.png", png: decode("iVBORw0KGgoAAAANSUhEUgAAAHgAAAB4CAIAAAC2BqGFAAAAs0lEQVR42u3QQQ0AAAgEoEtkM9sZ0Bb6YSMBqR4ORIFo0YgWLdqCaNGIFi3agmjRiBYtGtGiES1aNKJFI1q0aESLRrRo0YgWjWjRohEtGtGiRSNaNKJFi0a0aESLFo1o0YgWLRrRohEtWjSiRSNatGhEi0a0aNGIFo1o0aIRLRrRokUjWjSiRYtGtGhEixaNaNGIFi0a0aIRLVo0okUjWrRoRItGtGjRiBaNaNGiES0a0f8WH9KgCF7dgcAAAAAASUVORK5CYII=")),
    ]
    private static func decode(_ text: String) -> [UInt8] { [UInt8](Data(base64Encoded: text) ?? Data()) }
}

enum XML {
    /// Text and attribute values escaped as every XML front escapes them (Library's `XMLText`, shared with
    /// the Subsonic API): a control character in a tag is dropped rather than making the answer ill-formed.
    static func escape(_ text: String) -> String { XMLText.escaped(text) }
}
