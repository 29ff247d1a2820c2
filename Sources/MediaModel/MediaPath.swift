#if canImport(Glibc)
import Glibc
#endif
/// A file path as the kernel sees it: bytes. Linux file names need not be UTF-8; the index stores the
/// bytes and gives them back exactly. `string` is for display (invalid bytes become U+FFFD).
public struct MediaPath: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(_ string: String) { self.bytes = Array(string.utf8) }

    /// Exact when `isUTF8`, otherwise with replacement characters.
    public var string: String { String(decoding: bytes, as: UTF8.self) }
    public var isUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }
    public var description: String { string }

    /// Calls `body` with a NUL-terminated C string of the exact bytes.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try (bytes + [0]).withUnsafeBufferPointer { buf in
            try buf.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The path as text that gives the bytes back (`init(reversibleText:)`), for a front whose names are
    /// text (MPD's URIs): a UTF-8 name is itself; each byte that is not part of valid UTF-8 becomes the
    /// private-use character U+EF80 + (byte − 0x80), the mapping MirBSD's OPTU-8 uses. So that the rule
    /// reverses on every name, a name's own U+EF80…U+EFFF (three bytes each) is written as its three bytes
    /// mapped the same way. Latin-1 `caf\xe9` reads "caf\u{EFE9}".
    public var reversibleText: String { Self.reversibleText(bytes) }

    /// Inlinable, so that a caller's module specializes it: unspecialized (through witness tables, byte by
    /// byte) it was two thirds of MPD's `listall` (2.3 µs a name).
    @inlinable
    public static func reversibleText<C: Collection<UInt8>>(_ bytes: C) -> String {
        // Fast path: valid UTF-8 holding no 0xEE lead byte (every U+EF80…U+EFFF starts with one) is itself.
        if !bytes.contains(0xEE), let text = String(validating: bytes, as: UTF8.self) { return text }
        var out = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var at = bytes.startIndex
        func escape<S: Sequence<UInt8>>(_ raw: S) { for b in raw { out.append(Unicode.Scalar(0xEF00 + UInt32(b))!) } }
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if (0xEF80...0xEFFF).contains(scalar.value) { escape(encoded) } else { out.append(scalar) }
                at = bytes.index(at, offsetBy: encoded.count)
            case .error(let length):
                let end = bytes.index(at, offsetBy: length)
                escape(bytes[at..<end])
                at = end
            case .emptyInput:
                return String(out)
            }
        }
    }

    /// The bytes `reversibleText` was made from: U+EF80…U+EFFF are single bytes 0x80…0xFF, the rest UTF-8.
    public init(reversibleText text: String) {
        guard text.utf8.contains(0xEE) else { self.init(text); return }
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            if (0xEF80...0xEFFF).contains(scalar.value) { bytes.append(UInt8(scalar.value - 0xEF00)) } else { bytes += Array(String(scalar).utf8) }
        }
        self.init(bytes: bytes)
    }

    public var lastComponent: MediaPath {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return self }
        return MediaPath(bytes: Array(bytes[(slash + 1)...]))
    }
    public var directory: MediaPath {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return MediaPath(".") }
        return slash == 0 ? MediaPath("/") : MediaPath(bytes: Array(bytes[..<slash]))
    }
    /// Lower-cased extension without the dot ("mp3"), or "".
    public var fileExtension: String {
        let name = lastComponent.bytes
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return "" }
        return String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
    }
    public func appending(_ component: MediaPath) -> MediaPath {
        if bytes.last == UInt8(ascii: "/") { return MediaPath(bytes: bytes + component.bytes) }
        return MediaPath(bytes: bytes + [UInt8(ascii: "/")] + component.bytes)
    }
    /// Whether the path lies under `dir` (at `dir` + "/…"). Compared in place: adding the "/" made an array
    /// for every call (every name MPD's `listall` writes).
    public func hasPrefix(directory dir: MediaPath) -> Bool {
        let d = dir.bytes
        guard bytes.starts(with: d) else { return false }
        return d.last == UInt8(ascii: "/") || (bytes.count > d.count && bytes[d.count] == UInt8(ascii: "/"))
    }

    /// Byte order (as `memcmp`, shorter first on a tie), the order the index keeps paths in.
    public static func < (a: Self, b: Self) -> Bool {
        a.bytes.withUnsafeBytes { x in
            b.bytes.withUnsafeBytes { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
    }

    // Hashing the bytes as one block: the synthesised version fed them to the hasher one at a time, which
    // was a tenth of an unchanged rescan (paths key the scanner's sets and dictionaries).
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    // Codable: a UTF-8 path encodes as a plain string; otherwise as {"bytes": [..], "lossy": "…"} so
    // nothing is lost, the same form as `json` (`mlib ls --json`, `mlib failures --json`, `scan --json`).
    private enum Keys: String, CodingKey { case bytes, lossy }
    public init(from decoder: Decoder) throws {
        if let s = try? decoder.singleValueContainer().decode(String.self) { self.init(s); return }
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(bytes: try c.decode([UInt8].self, forKey: .bytes))
    }
    public func encode(to encoder: Encoder) throws {
        if isUTF8 { var c = encoder.singleValueContainer(); try c.encode(string) } else {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(bytes, forKey: .bytes)
            try c.encode(string, forKey: .lossy)
        }
    }
}
