import Foundation

/// The bytes of one answer, built as `key: value` lines (and binary chunks for `albumart`).
struct Response {
    private(set) var bytes: [UInt8] = []

    mutating func field(_ key: String, _ value: String) {
        // A value cannot hold a line break: MPD's clients read line by line.
        let clean = value.contains(where: { $0 == "\n" || $0 == "\r" })
            ? value.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: "\r", with: " ")
            : value
        bytes += Array("\(key): \(clean)\n".utf8)
    }

    mutating func field(_ key: String, _ value: Int) { field(key, String(value)) }

    mutating func line(_ text: String) { bytes += Array((text + "\n").utf8) }

    mutating func binary(_ data: [UInt8]) {
        field("binary", data.count)
        bytes += data
        bytes.append(UInt8(ascii: "\n"))
    }

    mutating func append(_ other: Response) { bytes += other.bytes }

    var isEmpty: Bool { bytes.isEmpty }
}

/// MPD's number formats: seconds with three decimals, and ISO 8601 UTC times.
enum MPDFormat {
    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func date(fromTimestamp text: String) -> Date? {
        if let seconds = Double(text) { return Date(timeIntervalSince1970: seconds) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
