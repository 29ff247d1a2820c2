/// A file as a scan reads it (`MediaProbe.probe(_:detail: .library)`) and what the file system said of it
/// when it was opened: handed from a reader that has just read it (a tag write's check) to an index
/// refresh, which uses it instead of reading the file again while the file still has these facts.
public struct ProbedFile: Sendable {
    public var facts: FileFacts
    public var result: ProbeResult
    /// The file's content identity from the same read, when the reader made it: the refresh then does not
    /// open the file at all (it read the head and tail windows again for these hashes alone).
    public var identity: ContentIdentity?

    public init(facts: FileFacts, result: ProbeResult, identity: ContentIdentity? = nil) {
        self.facts = facts
        self.result = result
        self.identity = identity
    }

    /// Whether the file looks as it did when read: the same inode, size and modification time (within a
    /// microsecond: `FileFacts` keeps seconds in a `Double`, a quarter of a microsecond apart today).
    public func stillDescribes(size: Int64, mtimeNanoseconds: Int64, inode: Int64) -> Bool {
        facts.size == size && facts.inode == UInt64(bitPattern: inode)
            && abs(facts.modificationTime - Double(mtimeNanoseconds) / 1e9) < 1e-6
    }
}
