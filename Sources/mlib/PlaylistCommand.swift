import ArgumentParser

// Placeholder: replaced when this command lands.
struct PlaylistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "playlist", abstract: "Manage playlists.")
    func run() async throws { throw ValidationError("not implemented yet") }
}
