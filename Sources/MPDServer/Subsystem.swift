/// `idle` subsystems, as MPD names them.
public enum Subsystem: String, Sendable, Hashable, CaseIterable {
    case database, update, stored_playlist, playlist, player, mixer, output, options, partition, sticker
    case subscription, message, neighbor, mount
}
