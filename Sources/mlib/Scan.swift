import ArgumentParser

// Placeholder: replaced when this command lands.
struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add directories to the library and scan them.")
    func run() async throws { throw ValidationError("not implemented yet") }
}
