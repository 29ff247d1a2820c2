import NIOCore

/// An IPv4 interface the server announces on: its name, address and netmask (to tell whether a request
/// came from its subnet).
struct AnnouncedInterface: Sendable {
    var name: String
    var address: String
    var addressBits: UInt32
    var maskBits: UInt32
    var device: NIONetworkDevice

    func holds(_ peer: UInt32) -> Bool { peer & maskBits == addressBits & maskBits }

    /// The interfaces named (all up IPv4 ones but loopback when none is), or an error naming the missing one.
    static func resolve(_ names: [String]) throws -> [AnnouncedInterface] {
        let devices = try System.enumerateDevices().compactMap { device -> AnnouncedInterface? in
            guard let address = device.address, case .v4(let v4) = address,
                  let mask = device.netmask, case .v4(let m) = mask else { return nil }
            return AnnouncedInterface(name: device.name, address: address.ipAddress ?? "",
                                      addressBits: UInt32(bigEndian: v4.address.sin_addr.s_addr),
                                      maskBits: UInt32(bigEndian: m.address.sin_addr.s_addr), device: device)
        }
        if names.isEmpty { return devices.filter { $0.addressBits >> 24 != 127 } }
        return try names.map { name in
            guard let found = devices.first(where: { $0.name == name }) else {
                throw DLNAServerError("no IPv4 interface named \(name) (there are: \(devices.map(\.name).joined(separator: ", ")))")
            }
            return found
        }
    }

    static func bits(of address: SocketAddress) -> UInt32? {
        guard case .v4(let v4) = address else { return nil }
        return UInt32(bigEndian: v4.address.sin_addr.s_addr)
    }
}

/// A start-up failure said in one line.
public struct DLNAServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
