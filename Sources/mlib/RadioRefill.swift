import Library
import Playback

/// `mlib play --radio`: the player's queue topped up from the library's `Radio` when it runs out.
struct RadioRefill: Sendable {
    let radio: Radio

    /// Appends the radio's next songs after the queue (`Radio.next(after:)`); whether any were added. A
    /// store error is one line on standard error, and the queue plays on without them.
    @discardableResult
    func refill(_ player: MusicPlayer) -> Bool {
        let queue = player.queue
        do {
            let songs = try radio.next(after: player.playOrder.map { queue[$0].persistentID })
            player.append(songs)
            return !songs.isEmpty
        } catch {
            printError("mlib: --radio: \(error)")
            return false
        }
    }
}
