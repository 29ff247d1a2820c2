/// `idle` subsystems, as MPD names them.
public enum Subsystem: String, Sendable, Hashable, CaseIterable {
    case database, update, stored_playlist, playlist, player, mixer, output, options, partition, sticker
    case subscription, message, neighbor, mount

    /// Every subsystem (a bare `idle`), made once: a polling client's `idle` built the set each time.
    static let all = Set(allCases)
}
