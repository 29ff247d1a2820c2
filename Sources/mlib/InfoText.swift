import Foundation
import MediaModel
import MediaProbe

/// The human-readable `mlib info` report, in the spirit of mediainfo: general facts, tags, then streams.
enum InfoText {
    static func render(_ probe: ProbeResult, showTags: Bool, lyrics: LyricsReport = LyricsReport()) -> String {
        let item = probe.item
        var lines: [String] = [item.path.string]
        func row(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            lines.append("  " + label.padding(toLength: max(label.count + 1, 30), withPad: " ", startingAt: 0) + value)
        }
        row("File type", item[.fileType]?.text)
        row("Container", item[.container]?.text)
        row("Duration", item[.playbackDuration]?.real.map(Format.duration))
        row("Declared duration", item[.declaredDuration]?.real.map { Format.duration($0) + " (the header's; the file is shorter)" })
        row("Size", item[.fileSize]?.integer.map(Format.bytes))
        row("Bit rate", item[.bitRate]?.integer.map { "\($0 / 1000) kb/s" })
        row("Media type", item.mediaType.name)
        if probe.isPartial { row("Partial", "read only in part: " + (item[.partialReason]?.text ?? "damaged or truncated file")) }
        for warning in probe.warnings where warning != item[.partialReason]?.text { row("Warning", warning) }
        if let reason = probe.undecodableReason { row("Decodable", "no: " + reason) }

        let tagProperties = MediaProperty.allCases.filter { $0.spec.origin == .tag && $0 != .mediaType && $0 != .hasArtwork }
        let present = tagProperties.filter { item[$0] != nil }
        if !present.isEmpty || showTags {
            lines.append("  Tags (\(probe.tagFormat ?? probe.tagSource))")
            for p in present { row("  " + p.spec.displayName, Format.value(item[p]!, p)) }
        }
        if showTags && !item.tags.isEmpty {
            lines.append("  Raw tags")
            for (k, v) in item.tags.sorted(by: { $0.key < $1.key }) { row("  " + k, v.replacingOccurrences(of: "\n", with: " ⏎ ")) }
        }
        for s in probe.streams { lines.append("  " + streamLine(s)) }
        for p in probe.pictures { lines.append("  Picture: " + pictureLine(p)) }
        if !probe.chapters.isEmpty { lines.append("  Chapters (\(probe.chapters.count))") }
        for (n, c) in probe.chapters.enumerated() { lines.append("    " + chapterLine(c, number: n + 1)) }
        lines += InfoLyrics.text(lyrics)
        return lines.joined(separator: "\n") + "\n"
    }

    static func pictureLine(_ p: PictureInfo) -> String { "\(p.type), \(p.mimeType), \(Format.bytes(Int64(p.size)))" }

    static func chapterLine(_ c: ChapterInfo, number: Int) -> String {
        "#\(number) \(Format.duration(c.start)) – \(Format.duration(c.end))" + (c.title.isEmpty ? "" : "  \(c.title)")
    }

    static func streamLine(_ s: StreamInfo) -> String {
        var parts = ["Stream #\(s.index) \(s.kind.rawValue): \(s.codec)" + (s.profile.map { " (\($0))" } ?? "")]
        if let r = s.sampleRate { parts.append("\(r) Hz") }
        if let layout = s.channelLayout, !layout.hasSuffix("channels") { parts.append(layout) } else if let c = s.channels { parts.append("\(c) ch") }
        if let f = s.sampleFormat { parts.append(f) }
        if let b = s.bitDepth { parts.append("\(b) bit") }
        if let w = s.width, let h = s.height { parts.append("\(w)x\(h)") }
        if let p = s.pixelFormat { parts.append(p) }
        if let fps = s.frameRate { parts.append(String(format: "%.3g fps", fps)) }
        if let br = s.bitRate { parts.append("\(br / 1000) kb/s") }
        if let lang = s.language, lang != "und" { parts.append(lang) }
        if s.isAttachedPicture { parts.append("attached picture") }
        if s.undecodable != nil { parts.append("not decodable" + (s.codecTag.flatMap { $0 == s.codec ? nil : " (\($0))" } ?? "")) }
        return parts.joined(separator: ", ")
    }
}

/// Display formats shared by the commands that print items.
enum Format {
    /// 83.5 → "1:23.500"; 3725 → "1:02:05.000".
    static func duration(_ seconds: Double) -> String {
        let total = max(0, seconds)
        let h = Int(total) / 3600, m = Int(total) / 60 % 60
        let s = total - Double(h * 3600 + m * 60)
        return h > 0 ? String(format: "%d:%02d:%06.3f", h, m, s) : String(format: "%d:%06.3f", m, s)
    }

    static func bytes(_ n: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var v = Double(n), u = 0
        while v >= 1024 && u < units.count - 1 { v /= 1024; u += 1 }
        return u == 0 ? "\(n) B" : String(format: "%.1f %@", v, units[u])
    }

    static func value(_ v: MediaValue, _ p: MediaProperty) -> String {
        switch p.spec.type {
        case .duration: v.real.map(duration) ?? v.description
        case .timestamp: v.real.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) } ?? v.description
        case .mediaType: MediaType(rawValue: v.integer ?? 0).name
        case .real: v.real.map { String(format: "%.2f", $0) } ?? v.description
        default: v.description.replacingOccurrences(of: "\n", with: " ⏎ ")
        }
    }
}
