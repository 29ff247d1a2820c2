import MediaModel

/// The rules both stores apply before `relocateRoot` rewrites a single path, so that they refuse the same moves.
package enum RootRelocation {
    /// Why the root `old` cannot move to `new` in a library with `roots`, or nil when it can.
    /// - `old` must be a root.
    /// - `new` must not be inside `old` (`/m` → `/m/sub`): the rewritten paths would land among the ones
    ///   still to be rewritten, and the files the old root holds would be claimed twice.
    /// - `new` must not be another root, inside one, or hold one: two roots would claim the same files.
    package static func refusal(roots: [MediaPath], old: MediaPath, new: MediaPath) -> String? {
        guard roots.contains(old) else { return "\(old) is not a library root" }
        if new == old { return "\(old) is already the root's path" }
        if new.hasPrefix(directory: old) { return "\(new) is inside the root \(old) it would move" }
        if let clash = roots.first(where: { $0 != old && ($0 == new || new.hasPrefix(directory: $0) || $0.hasPrefix(directory: new)) }) {
            return "\(new) overlaps the library root \(clash)"
        }
        return nil
    }
}
