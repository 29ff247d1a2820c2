import Foundation

/// SSDP's texts (UPnP Device Architecture 1.0, section 1): the notices a MediaServer sends and the answers
/// to searches, for the root device, the device's UUID, its type and each service's type.
struct SSDPMessages: Sendable {
    static let multicastAddress = "239.255.255.250"
    static let port = 1900

    let uuid: String
    let maxAge: Int
    static let server = "Linux/\(ProcessInfo.processInfo.operatingSystemVersionString.split(separator: " ").first ?? "1") UPnP/1.0 mlib/1.0"

    /// Every (NT or ST, USN) pair the device announces, root device first.
    var targets: [(type: String, usn: String)] {
        var result = [("upnp:rootdevice", "uuid:\(uuid)::upnp:rootdevice"), ("uuid:\(uuid)", "uuid:\(uuid)")]
        for type in [DeviceDescription.deviceType] + DeviceDescription.services.map(\.type) {
            result.append((type, "uuid:\(uuid)::\(type)"))
        }
        return result
    }

    func notify(alive: Bool, location: String) -> [String] {
        targets.map { target in
            var lines = ["NOTIFY * HTTP/1.1", "HOST: \(Self.multicastAddress):\(Self.port)"]
            if alive { lines += ["CACHE-CONTROL: max-age=\(maxAge)", "LOCATION: \(location)", "SERVER: \(Self.server)"] }
            lines += ["NT: \(target.type)", "NTS: \(alive ? "ssdp:alive" : "ssdp:byebye")", "USN: \(target.usn)"]
            return lines.joined(separator: "\r\n") + "\r\n\r\n"
        }
    }

    /// The answers to an M-SEARCH with this ST: every target for `ssdp:all`, the matching one otherwise
    /// (a version at or below the device's: a search for ContentDirectory:1 is answered by :1), none else.
    func answers(searchTarget: String, location: String) -> [String] {
        let matching: [(type: String, usn: String)]
        if searchTarget == "ssdp:all" {
            matching = targets
        } else {
            matching = targets.filter { Self.matches(searchTarget, $0.type) }.map { (searchTarget, $0.usn.replacingOccurrences(of: $0.type, with: searchTarget)) }
        }
        let date = Self.httpDate(Date())
        return matching.map { target in
            ["HTTP/1.1 200 OK", "CACHE-CONTROL: max-age=\(maxAge)", "DATE: \(date)", "EXT:", "LOCATION: \(location)",
             "SERVER: \(Self.server)", "ST: \(target.type)", "USN: \(target.usn)", "Content-Length: 0"].joined(separator: "\r\n") + "\r\n\r\n"
        }
    }

    static func matches(_ searched: String, _ offered: String) -> Bool {
        if searched == offered { return true }
        // urn:…:Type:v — a control point asking for version v is served by any version ≥ v.
        guard let colon = searched.lastIndex(of: ":"), let offeredColon = offered.lastIndex(of: ":"),
              searched[..<colon] == offered[..<offeredColon],
              let wanted = Int(searched[searched.index(after: colon)...]), let have = Int(offered[offered.index(after: offeredColon)...])
        else { return false }
        return wanted <= have
    }

    /// An M-SEARCH request's search target, or nil when the datagram is not one (or not `ssdp:discover`).
    static func searchTarget(of datagram: String) -> String? {
        let lines = datagram.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" })
        guard let first = lines.first, first.uppercased().hasPrefix("M-SEARCH * HTTP/1.") else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].trimmingCharacters(in: .whitespaces).uppercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard headers["MAN"]?.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) == "ssdp:discover" else { return nil }
        return headers["ST"]
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
