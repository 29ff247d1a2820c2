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

    /// An integer parameter, `fallback` when absent; a present but unreadable one is error 0 (not a crash,
    /// not a silent default).
    func int(_ name: String, _ fallback: Int) throws -> Int {
        guard let text = self[name] else { return fallback }
        guard let n = Int(text) else { throw SubsonicError.generic("parameter \(name) is not a number: \(text)") }
        return n
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
