import ArgumentParser

// Placeholder: replaced when this command lands.
struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Play items from the library.")
    func run() async throws { throw ValidationError("not implemented yet") }
}
