import Foundation

/// A queue player that another front drives: the Subsonic API's `jukeboxControl` drives the MPD server's
/// player (`MPDServer` conforms), so a phone's jukebox and an MPD client see and edit one queue.
public protocol Jukebox: AnyObject, Sendable {
    /// Carries out `command` for `user` (whose plays the player records; nil: the library's owner) and
    /// answers the queue and the player as they are afterwards.
    func jukebox(_ command: JukeboxCommand, user: String?) async throws -> JukeboxState

    /// Calls `handler` (on any thread) after each change of the queue or the player, whoever made it (an
    /// MPD client, a jukebox call, the end of a song): the web app's live view of the player listens here
    /// rather than polling.
    func observeChanges(_ handler: @escaping @Sendable () -> Void)
}

extension Jukebox {
    /// A player that reports no changes (its clients ask `status` when they need it).
    public func observeChanges(_ handler: @escaping @Sendable () -> Void) {}
}

/// What a jukebox client asks (Subsonic's `jukeboxControl` actions). Item ids are the library's.
public enum JukeboxCommand: Sendable, Hashable {
    case status
    /// Replaces the queue; the current song stays current when it is still in it.
    case set([Int64])
    case start
    case stop
    /// Plays queue entry `index` from `offset` seconds.
    case skip(index: Int, offset: Double)
    case add([Int64])
    case clear
    case remove(index: Int)
    case shuffle
    /// The volume, 0…1.
    case setGain(Float)
}

/// The queue and the player after a `JukeboxCommand`.
public struct JukeboxState: Sendable, Hashable {
    /// The queue's item ids, in queue order.
    public var entries: [Int64]
    /// The current entry (-1: none).
    public var currentIndex: Int
    public var playing: Bool
    public var gain: Float
    /// Seconds into the current entry.
    public var position: Double

    public init(entries: [Int64], currentIndex: Int, playing: Bool, gain: Float, position: Double) {
        self.entries = entries
        self.currentIndex = currentIndex
        self.playing = playing
        self.gain = gain
        self.position = position
    }
}

/// Why a jukebox command was refused.
public enum JukeboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An index outside the queue.
    case badIndex(Int)
    /// Ids that are no items of the library.
    case unknownItems([Int64])

    public var description: String {
        switch self {
        case .badIndex(let index): "no queue entry at index \(index)"
        case .unknownItems(let ids): "no such song: \(ids.map(String.init).joined(separator: ", "))"
        }
    }
}
