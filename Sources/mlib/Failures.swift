import ArgumentParser
import Foundation
import MediaIndex
import MediaModel

struct Failures: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "failures",
        abstract: "List files the scans could not read, with the reason.",
        discussion: """
            One line per file: the path, the reason, and [code] (not-found, permission-denied, not-a-file, \
            empty, not-media, corrupt, io-error). "kept" marks a file that was indexed before it went bad: \
            the index keeps its last good metadata. Files read only in part (damaged, truncated, a tag with \
            no audio) are indexed with what could be read and listed too, with code "partial" and the reason \
            (`mlib ls damaged:yes` finds them). A failure disappears when the file is fixed or removed and \
            the library is rescanned.

            \(ExitStatus.help(one: nil))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .long, help: "Print a JSON array of {path, code, message, size, itemID, seen}.")
    var json = false

    func run() async throws { try Self.list(libraryOptions, json: json) }

    /// One line of the listing: a failure the scans recorded, or an item read only in part.
    struct Entry: Encodable { var path: MediaPath; var code: String; var message: String; var size: Int64; var itemID: Int64?; var seen: String }

    static func list(_ libraryOptions: LibraryOptions, json: Bool) throws {
        let index = try libraryOptions.open()
        let iso = ISO8601DateFormatter()
        var entries = try index.failures().map {
            Entry(path: $0.path, code: $0.code, message: $0.message, size: $0.size, itemID: $0.itemID, seen: iso.string(from: $0.seen))
        }
        // Partial reads are items (what could be read is indexed), listed here with their reason.
        let partial = MediaQuery(filter: .comparison(.init(.isPartial, .equal, .value(.bool(true)))))
        try index.forEachItem(partial) { item in
            entries.append(Entry(path: item.path, code: "partial", message: item[.partialReason]?.text ?? "read only in part",
                                 size: item[.fileSize]?.integer ?? 0, itemID: item.persistentID,
                                 seen: iso.string(from: Date(timeIntervalSince1970: item[.modificationDate]?.real ?? 0))))
        }
        entries.sort { $0.path < $1.path }
        if json {
            try JSONOutput.write(entries)
            return
        }
        var out = StandardOutput()
        for f in entries {
            out.write(f.path.string + ": " + f.message + " [" + f.code + "]" + (f.itemID != nil && f.code != "partial" ? " kept" : "") + "\n")
        }
        out.flush()
    }
}
