import MediaModel

/// PLS version 2: `[playlist]`, then `FileN`, `TitleN`, `LengthN` (seconds, -1 unknown) per entry,
/// `NumberOfEntries` and `Version=2` at the end.
enum PLS {
    static func append(_ item: MediaItem, number n: Int, locations: PlaylistLocations, to out: inout ByteBuffer) {
        out.append("File\(n)=")
        locations.appendLineLocation(item.path, utf8Only: true, to: &out)
        out.append("\nTitle\(n)=")
        out.append(displayTitleOf: item)
        out.append("\nLength\(n)=")
        let seconds = item.playbackDuration
        if seconds > 0, seconds.isFinite { out.append(integer: Int64(seconds.rounded())) } else { out.append("-1") }
        out.append(UInt8(ascii: "\n"))
    }

    static func writeFooter(count: Int, to out: inout ByteBuffer) {
        out.append("NumberOfEntries=\(count)\nVersion=2\n")
    }

    /// Entries in the order of their numbers (files in the wild are not always sorted); keys are
    /// case-insensitive; lines outside `[playlist]` and unknown keys are ignored.
    static func read(_ bytes: [UInt8], base: MediaPath, path: String?) throws -> PlaylistDocument {
        var files: [Int: PlaylistEntry.Location] = [:], titles: [Int: String] = [:], lengths: [Int: Double] = [:]
        var sawHeader = false
        for line in try PlaylistLines.split(bytes, path: path) {
            if line.first == UInt8(ascii: "[") {
                sawHeader = String(decoding: line, as: UTF8.self).lowercased().hasPrefix("[playlist]")
                continue
            }
            guard sawHeader, let eq = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = String(decoding: line[..<eq], as: UTF8.self).trimmingSpaces.lowercased()
            let value = line[line.index(after: eq)...]
            for (prefix, kind) in [("file", 0), ("title", 1), ("length", 2)] where key.hasPrefix(prefix) {
                guard let n = Int(key.dropFirst(prefix.count)) else { continue }
                switch kind {
                case 0: files[n] = EntryLocation.fromPathOrURI(value, base: base)
                case 1: titles[n] = String(decoding: value, as: UTF8.self)
                default: lengths[n] = Double(String(decoding: value, as: UTF8.self).trimmingSpaces).flatMap { $0 >= 0 ? $0 : nil }
                }
            }
        }
        guard sawHeader || !files.isEmpty else { throw PlaylistError(path: path, "not a PLS playlist (no [playlist] section)") }
        let entries = files.keys.sorted().map { n in
            PlaylistEntry(location: files[n]!, title: titles[n], duration: lengths[n])
        }
        return PlaylistDocument(entries: entries)
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
