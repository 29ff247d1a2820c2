import Foundation
import Synchronization

/// The household's chat (`addChatMessage`/`getChatMessages`), kept in the server's memory as Subsonic
/// kept it: the newest `capacity` messages, gone when the server stops. Nothing is written to the
/// library (that would be a schema step, for a feature few clients show).
final class ChatBoard: Sendable {
    struct Message: Sendable, Equatable {
        var user: String
        /// Milliseconds since 1970, as the API says times; strictly increasing, so `since` never misses one.
        var time: Int64
        var text: String
    }

    /// Messages kept; the oldest go first.
    static let capacity = 500
    /// The longest message taken, in characters (a chat line, not a document).
    static let maximumLength = 2_000

    private let messages = Mutex<[Message]>([])

    /// Adds a message by `user` at `now`; returns it.
    @discardableResult
    func add(user: String, text: String, at now: Date = Date()) -> Message {
        messages.withLock { list in
            let time = max(Int64((now.timeIntervalSince1970 * 1000).rounded(.down)), (list.last?.time ?? 0) + 1)
            let message = Message(user: user, time: time, text: text)
            list.append(message)
            if list.count > Self.capacity { list.removeFirst(list.count - Self.capacity) }
            return message
        }
    }

    /// The messages newer than `since` (ms since 1970), newest first, as Subsonic lists them.
    func messages(since: Int64) -> [Message] {
        messages.withLock { list in list.filter { $0.time > since }.reversed() }
    }
}
