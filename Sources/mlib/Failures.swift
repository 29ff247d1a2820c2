import ArgumentParser

// Placeholder: replaced when this command lands.
struct Failures: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List files the last scans could not read.")
    func run() async throws { throw ValidationError("not implemented yet") }
}
