import Foundation
import MediaModel

/// Buffered standard output: commands print many small pieces; one write(2) per 64 KiB keeps that cheap.
struct StandardOutput {
    private var buffer: [UInt8] = []

    mutating func write(_ s: String) {
        buffer.append(utf8: s)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func write(bytes: [UInt8]) {
        buffer += bytes
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}

extension MediaPath {
    /// Whether the path names a directory (symbolic links followed), asked by its bytes.
    var isDirectoryOnDisk: Bool {
        var st = stat()
        return withCString { stat($0, &st) } == 0 && st.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether the path names anything (symbolic links followed), asked by its bytes.
    var existsOnDisk: Bool {
        var st = stat()
        return withCString { stat($0, &st) } == 0
    }
}

/// The process arguments as raw bytes (argv), for file names that are not valid UTF-8.
enum RawArguments {
    static var all: [[UInt8]] {
        (1..<Int(CommandLine.argc)).compactMap { i in
            CommandLine.unsafeArgv[i].map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) }
        }
    }

    /// `arguments` (file or directory arguments as ArgumentParser parsed them) as the exact bytes the
    /// kernel passed: a non-UTF-8 name must reach open() intact, and Swift's String arguments have
    /// repaired it (U+FFFD). The raw arguments that read as each, in order; one not found as it is.
    static func paths(_ arguments: [String]) -> [MediaPath] {
        let raw = all
        var cursor = raw.startIndex
        return arguments.map { argument in
            guard let i = raw[cursor...].firstIndex(where: { MediaPath(bytes: $0).string == argument }) else { return MediaPath(argument) }
            cursor = raw.index(after: i)
            return MediaPath(bytes: raw[i])
        }
    }
}

/// Pretty JSON from `Encodable` values in the form every command prints (as `JSONValue` writes it): keys
/// sorted, two-space indentation, `"key": value`, numbers as `JSONValue.number` writes them. Foundation's
/// pretty printer on Linux writes `"key" : value` and every digit of a computed double, so `stats --json`
/// and `playlist list --json` looked like two programs.
enum JSONOutput {
    static func write(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        FileHandle.standardOutput.write(Data(normalized(Array(try encoder.encode(value))) + [UInt8(ascii: "\n")]))
    }

    /// Drops the space before each key's colon (outside strings, a colon only ever follows a key) and
    /// rewrites each number with a fraction or an exponent as `JSONValue.number` does.
    static func normalized(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false, escaped = false
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: " "), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ":") {
                i += 1
                continue
            } else if b == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) {
                var end = i
                while end < bytes.count, Self.numberBytes.contains(bytes[end]) { end += 1 }
                let token = bytes[i..<end]
                if token.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
                   let value = Double(String(decoding: token, as: UTF8.self)) {
                    out += Array(JSONValue.number(value).utf8)
                } else {
                    out += token
                }
                i = end
                continue
            }
            out.append(b)
            i += 1
        }
        return out
    }

    private static let numberBytes = Set("0123456789+-.eE".utf8)
}
