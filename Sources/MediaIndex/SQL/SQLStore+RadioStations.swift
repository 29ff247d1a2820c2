import Foundation

// Internet radio stations (schema "v23" / "pg v20"), one text for both stores.
extension SQLStore: RadioStationStore {
    public func radioStations() throws -> [InternetRadioStation] {
        try read { x in try x.rows(Self.stationSelect + " ORDER BY name, id").map(Self.station) }
    }

    public func addRadioStation(name: String, streamURL: String, homePageURL: String?) throws -> InternetRadioStation {
        // As the row reads back (a date is stored as seconds since 1970).
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970)
        return try write { x in
            let id = try x.value("""
                INSERT INTO radio_stations (name, stream_url, home_page_url, created, changed)
                VALUES (\(name), \(streamURL), \(homePageURL), \(now), \(now)) RETURNING id
                """).integer ?? 0
            return InternetRadioStation(id: id, name: name, streamURL: streamURL, homePageURL: homePageURL, created: now, changed: now)
        }
    }

    @discardableResult
    public func updateRadioStation(id: Int64, name: String, streamURL: String, homePageURL: String?) throws -> Bool {
        try write { x in
            try x.execute("""
                UPDATE radio_stations SET name = \(name), stream_url = \(streamURL), home_page_url = \(homePageURL), changed = \(Date())
                WHERE id = \(id)
                """) > 0
        }
    }

    @discardableResult
    public func removeRadioStation(id: Int64) throws -> Bool {
        try write { x in try x.execute("DELETE FROM radio_stations WHERE id = \(id)") > 0 }
    }

    private static let stationSelect: SQLStatement = "SELECT id, name, stream_url, home_page_url, created, changed FROM radio_stations"

    private static func station(_ row: SQLRow) -> InternetRadioStation {
        InternetRadioStation(id: row.int64(0) ?? 0, name: row.text(1) ?? "", streamURL: row.text(2) ?? "", homePageURL: row.text(3),
                             created: row.date(4) ?? Date(timeIntervalSince1970: 0), changed: row.date(5) ?? Date(timeIntervalSince1970: 0))
    }
}
