import MediaIndex
import MediaModel

/// What `mlib scan DIR…` means, decided in one place for every front (the CLI, `mlib serve`'s `update`, a
/// Swift program): a directory that is a root, or lies inside one, is rescanned as a subtree of that root
/// (as `mpc update DIR` and `beet update path:` do); any other directory becomes a new root. Without
/// directories, every root is scanned. A nested root is added only on request (`mlib root add`).
public struct ScanPlan: Sendable, Equatable {
    /// Directories to add as roots before scanning.
    public var newRoots: [MediaPath]
    /// What to walk: roots and subtrees of roots, in the order given.
    public var directories: [MediaPath]

    /// `directories` must be absolute and resolved (realpath), as roots are stored.
    public init(directories: [MediaPath], roots: [MediaPath]) {
        guard !directories.isEmpty else {
            newRoots = []
            self.directories = roots
            return
        }
        var newRoots: [MediaPath] = []
        // A path that is not plain (`root/../x`) becomes no root: the scanner refuses it (`missingRoots`).
        for directory in directories where RootContainment.isPlainAbsolute(directory)
            && RootContainment.root(holding: directory, among: roots) == nil {
            if !newRoots.contains(directory) { newRoots.append(directory) }
        }
        self.newRoots = newRoots
        var unique: [MediaPath] = []
        for directory in directories where !unique.contains(directory) { unique.append(directory) }
        self.directories = unique
    }
}
