import Foundation

/// The bytes of one answer, built as `key: value` lines (and binary chunks for `albumart`).
///
/// At most `limit` bytes are kept: past it the answer is dropped and `overflowed` set, and the client is
/// closed (MPD's `max_output_buffer_size`), so an answer never grows without bound.
struct Response {
    private(set) var bytes: [UInt8] = []
    var limit = Int.max
    private(set) var overflowed = false

    init(limit: Int = .max) { self.limit = limit }

    private mutating func checkLimit() {
        if bytes.count > limit {
            overflowed = true
            bytes = []
        }
    }

    mutating func field(_ key: String, _ value: String) {
        guard !overflowed else { return }
        defer { checkLimit() }
        // A value cannot hold a line break: MPD's clients read line by line; and mpd writes a tab in a
        // tag as a space. (Bytes, not Characters, are looked at and appended: this runs for every field
        // of every song of every answer.)
        let clean = value.utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 9 })
            ? value.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\t", with: " ")
            : value
        bytes.append(contentsOf: key.utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: clean.utf8)
        bytes.append(UInt8(ascii: "\n"))
    }

    mutating func field(_ key: String, _ value: Int) { field(key, String(value)) }

    mutating func line(_ text: String) {
        guard !overflowed else { return }
        defer { checkLimit() }
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\n"))
    }

    mutating func binary(_ data: [UInt8]) {
        field("binary", data.count)
        guard !overflowed else { return }
        defer { checkLimit() }
        bytes += data
        bytes.append(UInt8(ascii: "\n"))
    }


    var isEmpty: Bool { bytes.isEmpty }
}

/// MPD's number formats: seconds with three decimals, and ISO 8601 UTC times.
enum MPDFormat {
    /// By integer arithmetic rather than String(format:), which goes through Foundation's formatter for
    /// every `status` and every song written.
    static func seconds(_ value: Double) -> String {
        guard value.isFinite, value >= 0, value < 1e12 else { return String(format: "%.3f", value) }
        let millis = Int((value * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// "2024-05-01T12:00:00Z". By hand with gmtime_r and digits: an ISO8601DateFormatter per song cost
    /// ~1 ms on Linux, and String(format:) a few µs, most of a `listallinfo` line's time.
    static func timestamp(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        var bytes = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int, _ width: Int, at offset: Int) {
            var v = value
            for i in stride(from: offset + width - 1, through: offset, by: -1) {
                bytes[i] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            }
        }
        put(Int(parts.tm_year) + 1900, 4, at: 0)
        bytes[4] = UInt8(ascii: "-")
        put(Int(parts.tm_mon) + 1, 2, at: 5)
        bytes[7] = UInt8(ascii: "-")
        put(Int(parts.tm_mday), 2, at: 8)
        bytes[10] = UInt8(ascii: "T")
        put(Int(parts.tm_hour), 2, at: 11)
        bytes[13] = UInt8(ascii: ":")
        put(Int(parts.tm_min), 2, at: 14)
        bytes[16] = UInt8(ascii: ":")
        put(Int(parts.tm_sec), 2, at: 17)
        bytes[19] = UInt8(ascii: "Z")
        return String(decoding: bytes, as: UTF8.self)
    }

    static func date(fromTimestamp text: String) -> Date? {
        if let seconds = Double(text) { return Date(timeIntervalSince1970: seconds) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
