import ArgumentParser

// Placeholder: replaced when this command lands.
struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Library statistics.")
    func run() async throws { throw ValidationError("not implemented yet") }
}
