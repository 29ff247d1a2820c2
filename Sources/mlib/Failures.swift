import ArgumentParser
import Foundation
import MediaIndex
import MediaModel

struct Failures: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List files the scans could not read, with the reason.",
        discussion: """
            One line per file: the path, the reason, and [code] (not-found, permission-denied, not-a-file, \
            empty, not-media, corrupt, io-error). "kept" marks a file that was indexed before it went bad: \
            the index keeps its last good metadata. A failure disappears when the file is fixed or removed \
            and the library is rescanned.

            \(ExitStatus.help(one: nil))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .long, help: "Print a JSON array of {path, code, message, size, itemID, seen}.")
    var json = false

    func run() async throws { try Self.list(libraryOptions, json: json) }

    static func list(_ libraryOptions: LibraryOptions, json: Bool) throws {
        let failures = try libraryOptions.open().failures()
        if json {
            struct Entry: Encodable { var path: MediaPath; var code: String; var message: String; var size: Int64; var itemID: Int64?; var seen: String }
            let iso = ISO8601DateFormatter()
            let entries = failures.map { Entry(path: $0.path, code: $0.code, message: $0.message, size: $0.size,
                                               itemID: $0.itemID, seen: iso.string(from: $0.seen)) }
            try JSONOutput.write(entries)
            return
        }
        var out = StandardOutput()
        for f in failures {
            out.write(f.path.string + ": " + f.message + " [" + f.code + "]" + (f.itemID != nil ? " kept" : "") + "\n")
        }
        out.flush()
    }
}
