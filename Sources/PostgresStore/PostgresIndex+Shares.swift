import Foundation
import MediaIndex
import MediaModel

extension PostgresIndex {
    /// A store of `share`'s rows (its pseudo-host, `SharedRoot.hostID`) on a connection of its own: what a
    /// scan of the share runs on, so the scanner's rules (moves keep ids, an unmounted root removes
    /// nothing) apply to the share's one set of items whichever host scans, and its scan lock
    /// (`PostgresRootLock`, keyed by host and root) is one for every host: two hosts scanning the share at
    /// once take turns. Not registered as a host: it is no machine.
    public func shareStore(_ share: SharedRoot) throws -> PostgresIndex {
        try PostgresIndex(location, identity: HostIdentity(id: share.hostID, name: share.name, machine: "", idGiven: true, nameGiven: true),
                          readAhead: nil)
    }
}
