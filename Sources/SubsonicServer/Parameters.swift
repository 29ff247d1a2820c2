import Foundation
import MediaModel

/// A request's parameters: the query string and, for a form POST (OpenSubsonic's `formPost`), the body;
/// a name may come several times (`id=1&id=2`).
struct Parameters: Sendable {
    private(set) var pairs: [(String, String)] = []

    init(query: String?, form: String? = nil) {
        for text in [query, form].compactMap({ $0 }) where !text.isEmpty {
            for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
                let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                pairs.append((Self.decoded(parts[0]), parts.count > 1 ? Self.decoded(parts[1]) : ""))
            }
        }
    }

    subscript(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }
    func all(_ name: String) -> [String] { pairs.filter { $0.0 == name }.map(\.1) }

    func required(_ name: String) throws -> String {
        guard let value = self[name] else { throw SubsonicError.missing(name) }
        return value
    }

    // Checked values: every parameter a method reads is parsed here, into the type and range it may
    // have; anything else is error 0 ("… is out of range"), never a trap and never a silent default.
    // Absent optional ones are `fallback`; absent required ones error 10 (`required`).

    /// An integer within `range`.
    func int(_ name: String, _ fallback: Int, in range: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max)) throws -> Int {
        guard let text = self[name] else { return fallback }
        return try Self.int(name, text, in: range)
    }

    static func int(_ name: String, _ text: String, in range: ClosedRange<Int>) throws -> Int {
        guard let n = Int(text.trimmingCharacters(in: .whitespaces)) else { throw SubsonicError.generic("parameter \(name) is not a number") }
        guard range.contains(n) else { throw SubsonicError.generic("parameter \(name) is out of range (\(range.lowerBound)–\(range.upperBound))") }
        return n
    }

    /// A page size (`size`, `count`, `songCount`…): 0 or more, at most `limit` (Subsonic's 500: a larger
    /// size is answered with `limit` items, as Navidrome does).
    func size(_ name: String, _ fallback: Int, limit: Int = 500) throws -> Int {
        min(try int(name, fallback, in: 0...Int(Int32.max)), limit)
    }

    /// An offset into a list: 0 or more.
    func offset(_ name: String) throws -> Int { try int(name, 0, in: 0...Int(Int32.max)) }

    /// A year (`fromYear`, `toYear`).
    func year(_ name: String) throws -> Int? { try self[name].map { try Self.int(name, $0, in: -9999...9999) } }

    /// A bit rate in kb/s (0: no limit); a rate above 100,000 is taken as 100,000 (the encoder clamps it to
    /// what it makes anyway, and `* 1000` stays far from overflowing).
    func bitRate(_ name: String) throws -> Int { min(try int(name, 0, in: 0...Int(Int32.max)), 100_000) }

    /// `true`/`false` (any case; Python clients send `True`), or `1`/`0`.
    func bool(_ name: String, _ fallback: Bool) throws -> Bool {
        guard let text = self[name] else { return fallback }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw SubsonicError.generic("parameter \(name) is not true or false")
        }
    }

    /// One of `choices` (the text as sent).
    func choice(_ name: String, _ choices: Set<String>) throws -> String {
        let text = try required(name)
        guard choices.contains(text) else { throw SubsonicError.generic("parameter \(name) is not one of \(choices.sorted().joined(separator: ", "))") }
        return text
    }

    /// Every `name` as a time in milliseconds since 1970 (`scrobble`'s `time`), each within the years
    /// 1–9999 that a store keeps (`StoredBounds`).
    func dates(milliseconds name: String) throws -> [Date] {
        try all(name).map { text in
            guard let ms = Double(text.trimmingCharacters(in: .whitespaces)), ms.isFinite,
                  StoredBounds.timestamps.contains(ms / 1000) else {
                throw SubsonicError.generic("parameter \(name) is not a time in milliseconds within the years 1–9999")
            }
            return Date(timeIntervalSince1970: (ms / 1000).rounded(.down))
        }
    }

    /// A number of seconds into a song (`timeOffset`): finite, 0 or more, within `StoredBounds.durations`.
    func seconds(_ name: String) throws -> Double {
        guard let text = self[name] else { return 0 }
        guard let s = Double(text.trimmingCharacters(in: .whitespaces)), StoredBounds.durations.contains(s) else {
            throw SubsonicError.generic("parameter \(name) is not a number of seconds")
        }
        return s
    }

    /// `+` is a space and `%XX` a byte, as in HTML forms; malformed escapes stay as they are.
    static func decoded(_ text: Substring) -> String {
        guard text.contains("%") || text.contains("+") else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), utf8.count >= 2,
                      let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
