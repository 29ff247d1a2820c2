import Foundation
import MediaModel

/// The bytes of one answer, built as `key: value` lines (and binary chunks for `albumart`).
///
/// At most `limit` bytes are kept: past it the answer is dropped and `overflowed` set, and the client is
/// closed (MPD's `max_output_buffer_size`), so an answer never grows without bound. With a `sink`, a long
/// answer goes out in chunks while the rest is built, as mpd streams it: the client reads the first songs
/// of a `listallinfo` meanwhile (built whole first, it took 1.7-1.9x mpd's time at 2,000 songs).
struct Response {
    private(set) var bytes: [UInt8] = []
    var limit = Int.max
    private(set) var overflowed = false
    /// Where full chunks go (the client's channel); nil: the answer is kept whole.
    var sink: (@Sendable ([UInt8]) -> Void)?
    /// Bytes already given to `sink` (they count against `limit`).
    private var flushed = 0
    static let chunkSize = 128 * 1024

    init(limit: Int = .max, sink: (@Sendable ([UInt8]) -> Void)? = nil) {
        self.limit = limit
        self.sink = sink
        // Room for a short answer at once: grown from empty, a ten-line `lsinfo DIR` reallocated five times.
        bytes.reserveCapacity(Self.initialCapacity)
    }
    static let initialCapacity = 1024

    private mutating func checkLimit() {
        if flushed + bytes.count > limit {
            overflowed = true
            bytes = []
        } else if bytes.count >= Self.chunkSize, let sink {
            flushed += bytes.count
            sink(bytes)
            bytes = []
            bytes.reserveCapacity(Self.chunkSize + 4096)
        }
    }

    mutating func field(_ key: String, _ value: String) {
        guard !overflowed else { return }
        defer { checkLimit() }
        bytes.append(utf8: key)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        // A value cannot hold a line break: MPD's clients read line by line; and mpd writes a tab in a
        // tag as a space. The value is appended first and its bytes looked at in the array (a loop over
        // contiguous bytes): `contains(where:)` over the String's UTF-8 view was 10 % of a `listallinfo`.
        let start = bytes.count
        bytes.append(utf8: value)
        if bytes[start...].contains(where: { $0 == 10 || $0 == 13 || $0 == 9 }) {
            bytes.removeSubrange(start...)
            let clean = value.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\t", with: " ")
            bytes.append(utf8: clean)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    mutating func field(_ key: String, _ value: Int) { field(key, String(value)) }

    /// `key: 2024-05-01T12:00:00Z` for a time in seconds since 1970, written in place (a `listallinfo`
    /// writes one per song and per directory).
    mutating func timestamp(_ key: String, seconds: Double) {
        guard !overflowed else { return }
        defer { checkLimit() }
        bytes.append(utf8: key)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        MPDFormat.appendTimestamp(seconds, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// `key: parent/name` (or `key: name` for the top) without joining the two first.
    mutating func field(_ key: String, parent: String, name: String) {
        if parent.isEmpty { return field(key, name) }
        guard !overflowed else { return }
        bytes.append(utf8: key)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        let start = bytes.count
        bytes.append(utf8: parent)
        bytes.append(UInt8(ascii: "/"))
        bytes.append(utf8: name)
        if bytes[start...].contains(where: { $0 == 10 || $0 == 13 || $0 == 9 }) {
            // Rare: the one cleaning rule of `field(_:_:)`.
            bytes.removeSubrange((start - key.utf8.count - 2)...)
            return field(key, parent + "/" + name)
        }
        bytes.append(UInt8(ascii: "\n"))
        checkLimit()
    }

    mutating func line(_ text: String) {
        guard !overflowed else { return }
        defer { checkLimit() }
        bytes.append(utf8: text)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Lines already written (a cached answer: `stats`).
    mutating func append(_ lines: [UInt8]) {
        guard !overflowed else { return }
        defer { checkLimit() }
        bytes += lines
    }

    /// Lines already written, from storage the caller keeps (`SongLineCache`'s pages).
    mutating func append(_ lines: UnsafeBufferPointer<UInt8>) {
        guard !overflowed else { return }
        defer { checkLimit() }
        bytes.append(contentsOf: lines)
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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        appendTimestamp(date.timeIntervalSince1970, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The 20 bytes of `timestamp` appended to `bytes` (answers write them in place: no Date, no String).
    /// Made in a 20-byte tuple and appended at once: a byte appended at a time, each digit by division,
    /// was an eighth of a pipelined `lsinfo DIR`.
    static func appendTimestamp(_ seconds: Double, to bytes: inout [UInt8]) {
        // Within the years 1–9999 (`StoredBounds`): time_t(_:) of 1e297 or NaN traps, and 4 digits of year.
        let bounded = seconds.isFinite ? min(max(seconds, StoredBounds.timestamps.lowerBound), StoredBounds.timestamps.upperBound) : 0
        let (year, month, day, second) = civil(Int(bounded.rounded(.down)))
        let zero = UInt8(ascii: "0")
        func two(_ value: Int) -> (UInt8, UInt8) {
            let v = UInt8(truncatingIfNeeded: value)
            return (zero + v / 10 % 10, zero + v % 10)
        }
        let (mo0, mo1) = two(month), (d0, d1) = two(day)
        let (h0, h1) = two(second / 3600), (mi0, mi1) = two(second / 60 % 60), (s0, s1) = two(second % 60)
        let text: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                   UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (zero + UInt8(year / 1000 % 10), zero + UInt8(year / 100 % 10), zero + UInt8(year / 10 % 10),
             zero + UInt8(year % 10), UInt8(ascii: "-"), mo0, mo1, UInt8(ascii: "-"), d0, d1, UInt8(ascii: "T"),
             h0, h1, UInt8(ascii: ":"), mi0, mi1, UInt8(ascii: ":"), s0, s1, UInt8(ascii: "Z"))
        withUnsafeBytes(of: text) { bytes.append(contentsOf: $0) }
    }

    /// The proleptic Gregorian date (as gmtime's) of `seconds` since 1970 in UTC, and the seconds into that day:
    /// by arithmetic (Howard Hinnant's `civil_from_days`), as gmtime_r took the time zone lock and a table
    /// walk for every timestamp an answer writes (~2% of a `lsinfo DIR`).
    static func civil(_ seconds: Int) -> (year: Int, month: Int, day: Int, second: Int) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let z = days + 719_468                                   // days since 0000-03-01
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)   // from March 1
        let m = (5 * dayOfYear + 2) / 153
        let month = m < 10 ? m + 3 : m - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - (153 * m + 2) / 5 + 1, seconds - days * 86400)
    }

    static func date(fromTimestamp text: String) -> Date? {
        if let seconds = Double(text) { return Date(timeIntervalSince1970: seconds) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
