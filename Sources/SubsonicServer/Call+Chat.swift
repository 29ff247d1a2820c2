import Foundation

// The chat of the server's users (`ChatBoard`: in memory, the newest 500 messages, gone at a restart, as
// Subsonic kept it). Every user may read and write it; there is no deleting.
extension Call {
    /// `getChatMessages`: the messages newer than `since` (ms since 1970; 0 without it), newest first.
    func chatMessages() throws -> Node {
        let since = try parameters.int("since", 0, in: 0...Int(Int64.max))
        var node = Node("chatMessages")
        node.add(list: "chatMessage", server.chat.messages(since: Int64(since)).map { message in
            var entry = Node("chatMessage")
            entry.set("username", message.user)
            entry.set("time", message.time)
            entry.set("message", message.text)
            return entry
        })
        return node
    }

    /// `addChatMessage`: `message` (required, at most `ChatBoard.maximumLength` characters, else error 0).
    func addChatMessage() throws -> [Node] {
        let text = try parameters.required("message")
        guard text.count <= ChatBoard.maximumLength else {
            throw SubsonicError.generic("parameter message is longer than \(ChatBoard.maximumLength) characters")
        }
        server.chat.add(user: user.name, text: text)
        return []
    }
}
