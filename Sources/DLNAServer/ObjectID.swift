/// Object ids: `$`-separated paths from the root `0`, every part stable across rescans and moves — fixed
/// names for the fixed containers, a 64-bit FNV-1a hash of a name or a folder's path (16 hex digits) for
/// artists, albums, genres and folders, a year, a playlist's id, and `i` + the item's id for an item
/// (`1$albums$<album>$i42`): an item's id says which container it was listed in, so its `parentID` is
/// that container, and the same file keeps its id whenever it is listed there again.
enum ObjectID {
    static let root = "0", music = "1", video = "2", folders = "3"

    static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The item id at the end of `id`, and its container's id, when `id` names an item.
    static func item(_ id: String) -> (container: String, item: Int64)? {
        guard let dollar = id.lastIndex(of: "$") else { return nil }
        let last = id[id.index(after: dollar)...]
        guard last.first == "i", let number = Int64(last.dropFirst()) else { return nil }
        return (String(id[..<dollar]), number)
    }

    static func child(_ parent: String, _ part: String) -> String { parent + "$" + part }
    /// An item's id in a container. Pages write it from its parts (`DIDLOutput.number`); this is for an id
    /// looked up or compared.
    static func item(in container: String, id: Int64) -> String { container + "$i\(id)" }

    /// `id`'s `$`-separated parts, split on its contiguous bytes (`$` is ASCII; splitting by Character was a
    /// twentieth of a Browse's instructions, and the generic split of its `UTF8View` still a hundredth of a
    /// Browse's time).
    static func parts(_ id: String, omittingEmpty: Bool = false) -> [String] {
        var id = id
        return id.withUTF8 { utf8 in
            var parts: [String] = []
            parts.reserveCapacity(6)
            var start = 0
            for end in 0...utf8.count where end == utf8.count || utf8[end] == UInt8(ascii: "$") {
                if end > start || !omittingEmpty { parts.append(String(decoding: UnsafeBufferPointer(rebasing: utf8[start..<end]), as: UTF8.self)) }
                start = end + 1
            }
            return parts
        }
    }

    /// Whether `byte` may stand in an id as it is in XML (ids are fixed names, digits and hex hashes joined
    /// by `$`): such an id is written without the escaping pass (`DIDLOutput.id`).
    @inline(__always) static func isPlain(_ byte: UInt8) -> Bool {
        // A digit, a letter of either case (`| 0x20` lowers it), or `$`, by arithmetic: range patterns cost
        // a score of instructions a byte.
        byte &- UInt8(ascii: "0") < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "$")
    }
}
