import ArgumentParser
import Foundation
import MediaIndex
import MediaModel
import MediaScanner

/// `mlib resolve`: the possible moves partial scans left hidden, settled by the user (`PossibleMoves`).
struct Resolve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "List possible moves, or give one its file (or drop it).",
        discussion: """
            A scan names an item whose file is gone "a possible move" when the evidence that a new file is \
            it is not unique (its audio is also another release's, or several new files have it): no file \
            takes the item's rating, plays and playlist entries. A partial scan (a root, a folder, mlib \
            watch) hides such an item; the next scan of every root removes it if nothing took it. Until \
            then:

              mlib resolve                list each hidden item (its old path and id) and the indexed files
                                          that may be it, with the strongest evidence (content, audio,
                                          payload, musicBrainz, tags; "doubtful": another item has that audio)
              mlib resolve OLD NEW        the item hidden at OLD (old path or id) takes the file NEW: its
                                          id, rating, plays and playlist entries follow the file, and what
                                          was done with NEW's own item is carried over
              mlib resolve --drop OLD     the item hidden at OLD goes, with its user data

            \(ExitStatus.help(one: nil))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .long, help: "Print a JSON array of {id, path, candidates: [{id, path, evidence, doubtful}]}.")
    var json = false

    @Flag(name: .long, help: "Drop the possible move OLD: the item and its user data go.")
    var drop = false

    @Argument(help: ArgumentHelp("The hidden item (its old path or id), then the file it is.", valueName: "old new"),
              completion: .file())
    var paths: [String] = []

    func validate() throws {
        if drop && paths.count != 1 { throw ValidationError("--drop takes one possible move: mlib resolve --drop OLD") }
        if !drop && paths.count == 1 { throw ValidationError("give the file the item is: mlib resolve OLD NEW (or --drop OLD)") }
        if paths.count > 2 { throw ValidationError("one possible move at a time: mlib resolve OLD NEW") }
        if json && !paths.isEmpty { throw ValidationError("--json lists; it takes no paths") }
    }

    func run() async throws {
        let index = try libraryOptions.open()
        // An id stays an id; a path is made absolute as the scan stored it.
        let old = paths.first.map { Int64($0) != nil ? $0 : Scan.absolutePath(MediaPath($0)).string }
        if drop, let old { return try PossibleMoves.drop(index, old: old) }
        if let old, paths.count == 2 { return try PossibleMoves.resolve(index, old: old, new: Scan.absolutePath(MediaPath(paths[1]))) }
        let entries = try PossibleMoves.list(index)
        if json { return try JSONOutput.write(entries) }
        var out = StandardOutput()
        for entry in entries {
            out.write(entry.path.string + " (#\(entry.id))\n")
            for candidate in entry.candidates {
                out.write("  " + candidate.path.string + "\t" + candidate.evidence + (candidate.doubtful ? ", doubtful" : "") + "\n")
            }
        }
        out.flush()
    }
}
