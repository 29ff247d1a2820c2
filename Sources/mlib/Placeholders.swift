import ArgumentParser

// Commands still being built. Each moves to its own file when it lands; this file then disappears.
struct Info: AsyncParsableCommand { static let configuration = CommandConfiguration(abstract: "Show metadata of media files.") }
struct Scan: AsyncParsableCommand { static let configuration = CommandConfiguration(abstract: "Add directories to the library and scan them.") }
struct Stats: AsyncParsableCommand { static let configuration = CommandConfiguration(abstract: "Library statistics.") }
struct Failures: AsyncParsableCommand { static let configuration = CommandConfiguration(abstract: "List files the last scans could not read.") }
struct List: AsyncParsableCommand { static let configuration = CommandConfiguration(commandName: "ls", abstract: "Query the library.", aliases: ["query"]) }
struct Export: AsyncParsableCommand { static let configuration = CommandConfiguration(abstract: "Export query results as a playlist.") }
struct PlaylistCommand: AsyncParsableCommand { static let configuration = CommandConfiguration(commandName: "playlist", abstract: "Manage playlists.") }
struct Play: AsyncParsableCommand { static let configuration = CommandConfiguration(abstract: "Play items from the library.") }
