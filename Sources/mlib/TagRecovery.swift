import TagWriting

/// What every mlib command does first: completes what an interrupted `mlib tag` left in its journal
/// (TagJournal.recover) and says so on standard error.
enum TagRecovery {
    static func run() {
        let done = TagJournal(directory: TagJournal.defaultDirectory()).recover()
        guard !done.isEmpty else { return }
        for path in done.restored { printError("\(path): an interrupted mlib tag was undone (the old tags are back)") }
        for path in done.removedCopies { printError("\(path): removed (an interrupted mlib tag's unfinished copy)") }
        for path in done.failed { printError("\(path): an interrupted mlib tag could not be undone yet (kept in the journal)") }
    }
}
