import Foundation
import Library
import MediaIndex

// Internet radio stations, kept in the library (`Library+RadioStations`): every user lists them; only admins
// add, change or remove them (error 50 for anyone else, as Navidrome), an unknown id is error 70, a missing
// parameter error 10.
extension Call {
    func internetRadioStations() async throws -> Node {
        let stations = try await server.offLoop { [library = server.library] in try library.radioStations() }
        var node = Node("internetRadioStations")
        node.add(list: "internetRadioStation", stations.map { station in
            var s = Node("internetRadioStation")
            s.set("id", String(station.id))
            s.set("name", station.name)
            s.set("streamUrl", station.streamURL)
            s.set("homePageUrl", station.homePageURL)
            return s
        })
        return node
    }

    func createInternetRadioStation() async throws -> [Node] {
        guard user.isAdmin else { throw SubsonicError.notAuthorized("editing radio stations (admins only)") }
        let stream = try parameters.required("streamUrl"), name = try parameters.required("name")
        let home = parameters["homepageUrl"], account = user
        try await server.offLoop { [library = server.library] in
            _ = try library.addRadioStation(name: name, streamURL: stream, homePageURL: home, by: account)
        }
        return []
    }

    func updateInternetRadioStation() async throws -> [Node] {
        guard user.isAdmin else { throw SubsonicError.notAuthorized("editing radio stations (admins only)") }
        let id = try stationID()
        let stream = try parameters.required("streamUrl"), name = try parameters.required("name")
        let home = parameters["homepageUrl"], account = user
        try await server.offLoop { [library = server.library] in
            try library.updateRadioStation(id: id, name: name, streamURL: stream, homePageURL: home, by: account)
        }
        return []
    }

    func deleteInternetRadioStation() async throws -> [Node] {
        guard user.isAdmin else { throw SubsonicError.notAuthorized("editing radio stations (admins only)") }
        let id = try stationID(), account = user
        try await server.offLoop { [library = server.library] in try library.removeRadioStation(id: id, by: account) }
        return []
    }

    /// The `id` parameter; one that cannot be a station's is error 70, as an id never made.
    private func stationID() throws -> Int64 {
        let text = try parameters.required("id")
        guard let id = Int64(text), id > 0 else { throw SubsonicError.notFound("Radio station \(text)") }
        return id
    }
}
