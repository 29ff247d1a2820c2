import ArgumentParser

// Placeholder: replaced when this command lands.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Export query results as a playlist.")
    func run() async throws { throw ValidationError("not implemented yet") }
}
