import ArgumentParser
import Foundation
import Library
import MediaIndex
import MediaModel

/// `mlib radio`: the internet radio stations kept in the library (`Library+RadioStations`), the ones Subsonic
/// clients list (`getInternetRadioStations`). The CLI is the library's own user: it may edit them, as an
/// admin does through the API.
struct RadioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "radio",
        abstract: "List, add, change or remove the internet radio stations Subsonic clients are offered.",
        discussion: """
            Stations live in the library (both stores), the same for every user and host. A stream or home \
            page URL must be an http or https URL.

            Examples:
              mlib radio add "Jazz 24" https://live.example.org/jazz24.mp3 --home-page https://example.org
              mlib radio list
              mlib radio list --json
              mlib radio set 1 "Jazz 24" https://live.example.org/jazz24.aac
              mlib radio remove 1

            \(ExitStatus.help(one: "no such station, or a name or URL refused"))
            """,
        subcommands: [RadioList.self, RadioAdd.self, RadioSet.self, RadioRemove.self],
        defaultSubcommand: RadioList.self)
}

struct RadioList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the stations, by name: id, name, stream URL, home page.",
        discussion: """
            With --json, an array of objects, by name: id, name, streamURL, homePageURL (null without one), \
            created and changed (seconds since 1970).

            \(ExitStatus.help(one: nil))
            """)
    @OptionGroup var libraryOptions: LibraryOptions
    @Flag(name: .long, help: "Print JSON (for scripts).") var json = false

    func run() throws {
        let stations = try libraryOptions.library().radioStations()
        if json {
            let rows: [JSONValue] = stations.map { station in
                let homePage: JSONValue = station.homePageURL.map { .string($0) } ?? .null
                return .object([("id", .int(station.id)), ("name", .string(station.name)), ("streamURL", .string(station.streamURL)),
                                ("homePageURL", homePage), ("created", .double(station.created.timeIntervalSince1970)),
                                ("changed", .double(station.changed.timeIntervalSince1970))])
            }
            print(JSONValue.array(rows).serialized(pretty: true))
            return
        }
        for station in stations {
            print([String(station.id), station.name, station.streamURL, station.homePageURL].compactMap { $0 }.joined(separator: "\t"))
        }
    }
}

struct RadioAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a station; prints its id.",
                                                    discussion: ExitStatus.help(one: "a name or URL refused"))
    @OptionGroup var libraryOptions: LibraryOptions
    @Argument(help: ArgumentHelp("The station's name.", valueName: "name")) var name: String
    @Argument(help: ArgumentHelp("Its stream's http or https URL.", valueName: "url")) var url: String
    @Option(help: ArgumentHelp("Its home page's URL.", valueName: "url")) var homePage: String?

    func run() throws {
        let library = try libraryOptions.library()
        let station = try User.reporting { try library.addRadioStation(name: name, streamURL: url, homePageURL: homePage, by: nil) }
        print("added station \(station.id)")
    }
}

struct RadioSet: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "set", abstract: "Replace a station's name and URLs (without --home-page, it has none).",
                                                    discussion: ExitStatus.help(one: "no such station, or a name or URL refused"))
    @OptionGroup var libraryOptions: LibraryOptions
    @Argument(help: ArgumentHelp("The station's id (mlib radio list).", valueName: "id")) var id: Int64
    @Argument(help: ArgumentHelp("Its name.", valueName: "name")) var name: String
    @Argument(help: ArgumentHelp("Its stream's http or https URL.", valueName: "url")) var url: String
    @Option(help: ArgumentHelp("Its home page's URL.", valueName: "url")) var homePage: String?

    func run() throws {
        let library = try libraryOptions.library()
        try User.reporting { try library.updateRadioStation(id: id, name: name, streamURL: url, homePageURL: homePage, by: nil) }
        print("changed station \(id)")
    }
}

struct RadioRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a station.",
                                                    discussion: ExitStatus.help(one: "no such station"))
    @OptionGroup var libraryOptions: LibraryOptions
    @Argument(help: ArgumentHelp("The station's id (mlib radio list).", valueName: "id")) var id: Int64

    func run() throws {
        let library = try libraryOptions.library()
        try User.reporting { try library.removeRadioStation(id: id, by: nil) }
        print("removed station \(id)")
    }
}
