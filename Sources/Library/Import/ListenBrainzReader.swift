import Foundation

/// A ListenBrainz listens export (ListenBrainz's "JSON Documentation",
/// https://listenbrainz.readthedocs.io/en/latest/users/json.html): listens with `listened_at` (seconds
/// since 1970), `track_metadata.artist_name`, `track_name`, `release_name`, and in `additional_info`
/// `recording_mbid` and `duration_ms` (or `duration`, s); the export's `mbid_mapping.recording_mbid` too.
/// One listen per line (the export's JSON lines, and `mlib history --export`), read a line at a time; or
/// one JSON array (older exports), which is read whole. Each listen becomes a history row of the user's.
public struct ListenBrainzReader: UserDataReader {
    public let file: String
    public init(file: String) { self.file = file }

    public func read(_ body: (ImportedRecord) throws -> Void) throws {
        try UserDataImportError.requireReadable(file)
        guard let handle = FileHandle(forReadingAtPath: file) else { throw UserDataImportError.unreadable(file: file, reason: "no such file") }
        defer { try? handle.close() }
        var pending = Data()
        var lineNumber = 0
        var first = true
        while true {
            let chunk = handle.readData(ofLength: 1 << 16)
            if first, let start = chunk.first(where: { !Self.isSpace($0) }), start == UInt8(ascii: "[") {
                // An array: read whole.
                var all = chunk
                all.append(handle.readDataToEndOfFile())
                guard let listens = try? JSONSerialization.jsonObject(with: all) as? [Any] else {
                    throw UserDataImportError.malformed(file: file, reason: "a JSON array of listens that does not parse")
                }
                for (index, listen) in listens.enumerated() { try body(record(listen, at: "listen \(index + 1)")) }
                return
            }
            first = false
            pending.append(chunk)
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                lineNumber += 1
                try readLine(pending[start..<newline], lineNumber, body)
                start = pending.index(after: newline)
            }
            // What is left is the start of the next line (one removal per chunk, not one per line).
            pending = Data(pending[start...])
            if chunk.isEmpty { break }
        }
        if !pending.isEmpty { try readLine(pending, lineNumber + 1, body) }
    }

    private func readLine(_ line: Data, _ number: Int, _ body: (ImportedRecord) throws -> Void) throws {
        guard line.contains(where: { !Self.isSpace($0) }) else { return }
        guard let object = try? JSONSerialization.jsonObject(with: line) else {
            throw UserDataImportError.malformed(file: file, reason: "line \(number) is not JSON")
        }
        try body(record(object, at: "line \(number)"))
    }

    private func record(_ object: Any, at place: String) throws -> ImportedRecord {
        guard let listen = object as? [String: Any], let metadata = listen["track_metadata"] as? [String: Any],
              let when = (listen["listened_at"] as? NSNumber)?.doubleValue else {
            throw UserDataImportError.malformed(file: file, reason: "\(place): no listened_at or track_metadata")
        }
        let info = metadata["additional_info"] as? [String: Any] ?? [:]
        let mapping = metadata["mbid_mapping"] as? [String: Any] ?? [:]
        let duration = (info["duration_ms"] as? NSNumber).map { $0.doubleValue / 1000 } ?? (info["duration"] as? NSNumber)?.doubleValue
        let track = ImportedTrack(recordingID: info["recording_mbid"] as? String ?? mapping["recording_mbid"] as? String,
                                  artist: metadata["artist_name"] as? String, album: metadata["release_name"] as? String,
                                  title: metadata["track_name"] as? String, duration: duration)
        return ImportedRecord(track: track, listenedAt: Date(timeIntervalSince1970: when))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
}
