import ArgumentParser

// Placeholder: replaced when this command lands.
struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "Query the library.", aliases: ["query"])
    func run() async throws { throw ValidationError("not implemented yet") }
}
