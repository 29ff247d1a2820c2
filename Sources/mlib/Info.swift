import ArgumentParser

// Placeholder: replaced when this command lands.
struct Info: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show metadata of media files.")
    func run() async throws { throw ValidationError("not implemented yet") }
}
