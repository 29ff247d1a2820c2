import Foundation

/// An internet radio station the household keeps in the library (Subsonic's `internetRadioStation`): a
/// stream a player opens by its URL. Library-wide (every host and user sees the same ones); only admins
/// change them (`Library+RadioStations.swift`).
public struct InternetRadioStation: Sendable, Hashable {
    /// Given by the store, never reused.
    public var id: Int64
    public var name: String
    public var streamURL: String
    public var homePageURL: String?
    public var created: Date
    public var changed: Date

    public init(id: Int64, name: String, streamURL: String, homePageURL: String?, created: Date, changed: Date) {
        self.id = id
        self.name = name
        self.streamURL = streamURL
        self.homePageURL = homePageURL
        self.created = created
        self.changed = changed
    }
}

/// The radio stations (both stores: SQLStore+RadioStations.swift; schema "v23" / "pg v20"). Every requirement
/// keeps the store contract (`LibraryStore`). Rights are `Library`'s, not the store's.
public protocol RadioStationStore: Sendable {
    /// Every station, by name then id.
    func radioStations() throws -> [InternetRadioStation]
    /// Adds a station; returns it with its new id.
    func addRadioStation(name: String, streamURL: String, homePageURL: String?) throws -> InternetRadioStation
    /// Replaces station `id`'s name and URLs; false when there is no such station.
    @discardableResult func updateRadioStation(id: Int64, name: String, streamURL: String, homePageURL: String?) throws -> Bool
    /// Removes station `id`; false when there was none.
    @discardableResult func removeRadioStation(id: Int64) throws -> Bool
}
