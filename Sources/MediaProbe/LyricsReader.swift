#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// Every set of lyrics a file has, and what could not be read, one line each.
public struct LyricsReport: Sendable, Hashable {
    public var lyrics: [Lyrics]
    public var warnings: [String]
    /// Why the file itself could not be read (missing, unreadable, not media), when it could not; also in `warnings`.
    public var fileError: String?
    public init(lyrics: [Lyrics] = [], warnings: [String] = [], fileError: String? = nil) {
        self.lyrics = lyrics
        self.warnings = warnings
        self.fileError = fileError
    }
}

/// Reads lyrics from every source a file has: its tags (ID3v2 USLT and SYLT frames with their language
/// and description; the lyrics tag of every other format: Vorbis LYRICS/UNSYNCEDLYRICS, MP4 ©lyr, APE
/// Lyrics, ASF WM/Lyrics, and for Matroska/WebM, which TagLib cannot open, FFmpeg's LYRICS tag; LRC text
/// in any of them read as synced) and sidecar files beside it with
/// the same stem (`.elrc`, `.lrc`, `.txt`, any case of the extension).
///
/// Bad input is read as far as it is sound and the rest said in `warnings`; nothing here hangs or reads
/// without bound: a sidecar is opened only when it is a regular file (a FIFO never is), a symbolic link
/// only when it leads to a file inside `root`, and only its first `sidecarCap` bytes are read.
public enum LyricsReader {
    /// `MLIB_SCAN_WITHOUT_LYRICS=1`, for benchmarks only: a probe gives no lyrics and the scan looks for no
    /// sidecar, so one binary scans a corpus with and without issue 41's work (`Benchmarks/scan-ab.sh`, whose
    /// "within 5%" line needs the same code otherwise). Read once per process; never set in normal use.
    public static let isAblated = getenv("MLIB_SCAN_WITHOUT_LYRICS").map { String(cString: $0) == "1" } ?? false

    /// The most of a sidecar read: 1 MiB (a song's LRC is a few KiB; a 50 MB file is not lyrics).
    public static let sidecarCap = 1 << 20
    /// The sidecar extensions, in order of precedence.
    public static let sidecarExtensions = ["elrc", "lrc", "txt"]

    /// The lyrics of the file at `path`: the embedded ones in tag order, then the sidecars. `root` bounds
    /// where a sidecar's symbolic link may lead (default: the file's own folder).
    public static func read(_ path: MediaPath, root: MediaPath? = nil) -> LyricsReport {
        var report = LyricsReport()
        var durationMs: Int?
        do {
            let file = try MediaFile(path)
            let embedded = try embedded(file)
            report.lyrics += embedded.lyrics
            report.warnings += embedded.warnings
            durationMs = embedded.durationMs
        } catch {
            report.fileError = error.description
            report.warnings.append(error.description)
        }
        let sidecars = sidecars(of: path, root: root, durationMs: durationMs)
        report.lyrics += sidecars.lyrics
        report.warnings += sidecars.warnings
        return report
    }

    /// The lyrics in `file`'s tags, and the audio's length in ms when TagLib knows it.
    /// Throws when neither TagLib nor FFmpeg can read the file (not media, corrupt).
    static func embedded(_ file: MediaFile) throws(ProbeError) -> (lyrics: [Lyrics], warnings: [String], durationMs: Int?) {
        let hint = FormatSniffer.tagLibComplete(file)?.tagLibClass
        guard let tags = TagLibReader.read(file, hint: hint) ?? TagLibReader.read(file, hint: hint, audioProperties: false) else {
            return try fromFFmpeg(file)
        }
        return embedded(tags)
    }

    /// The lyrics in TagLib's read of a file (the probe's, so a scan opens TagLib once per file).
    static func embedded(_ tags: TagLibReader.Result) -> (lyrics: [Lyrics], warnings: [String], durationMs: Int?) {
        var lyrics: [Lyrics] = []
        var warnings: [String] = []
        let durationMs = tags.lengthMs
        for frame in tags.lyricsFrames {
            if frame.synced {
                guard let format = frame.timeFormat else {
                    warnings.append("SYLT frame with an unknown time stamp format: skipped")
                    continue
                }
                // MPEG frames: 1152 samples each (MPEG-1 Layer III; what SYLT writers use).
                let msPerUnit: Double
                switch format {
                case .milliseconds: msPerUnit = 1
                case .mpegFrames:
                    guard let rate = tags.sampleRate else {
                        warnings.append("SYLT frame timed in MPEG frames, and the sample rate is unknown: skipped")
                        continue
                    }
                    msPerUnit = 1152 * 1000 / Double(rate)
                }
                var lines = frame.entries.map { entry in
                    LyricsLine(startMs: Int((Double(entry.time) * msPerUnit).rounded()), text: sylt(entry.text))
                }
                warnings += ordered(&lines, durationMs: durationMs, what: "SYLT")
                lyrics.append(Lyrics(source: .sylt, language: frame.language, description: frame.description,
                                     text: lines.map(\.text).joined(separator: "\n"), lines: lines))
            } else {
                lyrics.append(fromText(frame.text, source: .uslt, origin: nil, language: frame.language,
                                       description: frame.description, durationMs: durationMs, warnings: &warnings))
            }
        }
        // TagLib's PropertyMap has the USLT frames' text too (as LYRICS or LYRICS:DESCRIPTION): only the
        // values no frame gave are other tags.
        let frameTexts = Set(tags.lyricsFrames.map(\.text))
        for (key, value) in tags.properties where isLyricsKey(key) && !frameTexts.contains(value) && !value.isEmpty {
            lyrics.append(fromText(value, source: .tag, origin: key, language: nil, description: nil,
                                   durationMs: durationMs, warnings: &warnings))
        }
        return (lyrics, warnings, durationMs)
    }

    /// A format TagLib 1.13 cannot open (Matroska, WebM): the lyrics tag FFmpeg reads, through the probe.
    /// FFmpeg's refusal is the file's error: `mlib lyrics bad.flac` on text said "no lyrics", as if it
    /// were a song without any (issue 41).
    static func fromFFmpeg(_ file: MediaFile) throws(ProbeError) -> (lyrics: [Lyrics], warnings: [String], durationMs: Int?) {
        let probe = try MediaProbe.probe(file)
        let durationMs = probe.item[.playbackDuration]?.real.map { Int(($0 * 1000).rounded()) }
        let (lyrics, warnings) = fromTags(probe.item.tags, durationMs: durationMs)
        return (lyrics, warnings, durationMs)
    }

    /// The lyrics tags of a merged tag map (FFmpeg's, where TagLib read nothing).
    static func fromTags(_ tags: [String: String], durationMs: Int?) -> (lyrics: [Lyrics], warnings: [String]) {
        var warnings: [String] = []
        let lyrics = tags.sorted { $0.key < $1.key }.filter { isLyricsKey($0.key.uppercased()) && !$0.value.isEmpty }.map {
            fromText($0.value, source: .tag, origin: $0.key.uppercased(), language: nil, description: nil, durationMs: durationMs, warnings: &warnings)
        }
        return (lyrics, warnings)
    }

    public static func isLyricsKey(_ key: String) -> Bool {
        key == "LYRICS" || key == "UNSYNCEDLYRICS" || key.hasPrefix("LYRICS:")
    }

    /// SYLT entries often carry the line break before their text ("\nSecond line").
    static func sylt(_ text: String) -> String {
        String(text.drop { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).trimmed
    }

    /// Lyrics from text (a tag value or a sidecar): synced when it is LRC, else plain.
    static func fromText(_ text: String, source: Lyrics.Source, origin: String?, language: String?, description: String?,
                         durationMs: Int?, warnings: inout [String]) -> Lyrics {
        let parsed = LRCParser.parse(text, durationMs: durationMs)
        let label = origin ?? source.rawValue.uppercased()
        warnings += parsed.warnings.map { "\(label): \($0)" }
        guard let lines = parsed.lines else {
            return Lyrics(source: source, origin: origin, language: language, description: description, text: text)
        }
        return Lyrics(source: source, origin: origin, language: language ?? parsed.headers["la"] ?? parsed.headers["lang"],
                      description: description, text: parsed.text, lines: lines, headers: parsed.headers, offsetMs: parsed.offsetMs)
    }

    /// Sorts lines by time (stable) and flags those past the end; the warnings it has.
    static func ordered(_ lines: inout [LyricsLine], durationMs: Int?, what: String) -> [String] {
        var warnings: [String] = []
        if zip(lines, lines.dropFirst()).contains(where: { $0.startMs > $1.startMs }) {
            lines = lines.enumerated().sorted { ($0.element.startMs, $0.offset) < ($1.element.startMs, $1.offset) }.map(\.element)
            warnings.append("\(what) lines out of time order: sorted")
        }
        if let durationMs {
            var past = 0
            for i in lines.indices where lines[i].startMs > durationMs { lines[i].pastEnd = true; past += 1 }
            if past > 0 { warnings.append("\(past) \(what) line(s) start after the end of the audio: kept, flagged pastEnd") }
        }
        return warnings
    }

    /// One sidecar (`sidecar`, beside the audio file, named as `sidecars` looks for them), read as `read` reads
    /// it: nil when it cannot be read (said in `warnings`). For the scan, which knows the sidecars from the
    /// folder listing it has and reads only those.
    public static func sidecar(_ sidecar: MediaPath, durationMs: Int?, warnings: inout [String]) -> Lyrics? {
        var seen = Set<[UInt8]>()
        guard let bytes = sidecarBytes(sidecar, bound: realPath(sidecar.directory), seen: &seen, warnings: &warnings),
              let ext = sidecar.lastComponent.string.split(separator: ".").last?.lowercased(),
              sidecarExtensions.contains(ext) else { return nil }
        let (text, _) = LyricsText.decode(bytes)
        let source: Lyrics.Source = ext == "elrc" ? .elrc : ext == "lrc" ? .lrc : .txt
        return fromText(text, source: source, origin: sidecar.lastComponent.string, language: nil, description: nil,
                        durationMs: durationMs, warnings: &warnings)
    }

    /// The sidecar files of `path` (same folder, same stem, a lyrics extension in any case), read.
    static func sidecars(of path: MediaPath, root: MediaPath?, durationMs: Int?) -> (lyrics: [Lyrics], warnings: [String]) {
        var lyrics: [Lyrics] = []
        var warnings: [String] = []
        let name = path.lastComponent.bytes
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return ([], []) }
        let stem = Array(name[..<dot])
        let directory = path.directory
        let bound = realPath(root ?? directory)
        var seen = Set<[UInt8]>()
        for ext in sidecarExtensions {
            for spelling in Set([ext, ext.uppercased()]).sorted() {
                let sidecar = directory.appending(MediaPath(bytes: stem + [UInt8(ascii: ".")] + Array(spelling.utf8)))
                guard let bytes = sidecarBytes(sidecar, bound: bound, seen: &seen, warnings: &warnings) else { continue }
                let (text, _) = LyricsText.decode(bytes)
                let source: Lyrics.Source = ext == "elrc" ? .elrc : ext == "lrc" ? .lrc : .txt
                lyrics.append(fromText(text, source: source, origin: sidecar.lastComponent.string, language: nil, description: nil,
                                       durationMs: durationMs, warnings: &warnings))
            }
        }
        return (lyrics, warnings)
    }

    /// A sidecar's first `sidecarCap` bytes; nil when there is none or it may not be read (said in
    /// `warnings`). `seen` holds the files already read (a case-insensitive file system, two links to one file).
    static func sidecarBytes(_ path: MediaPath, bound: [UInt8]?, seen: inout Set<[UInt8]>, warnings: inout [String]) -> [UInt8]? {
        var st = stat()
        guard path.withCString({ lstat($0, &st) }) == 0 else { return nil }
        var target = path
        if st.st_mode & S_IFMT == S_IFLNK {
            guard let real = realPath(path), let bound, real.starts(with: bound + [UInt8(ascii: "/")]) else {
                warnings.append("\(path.string): a symbolic link leading out of \(bound.map { String(decoding: $0, as: UTF8.self) } ?? "the folder"): not read")
                return nil
            }
            target = MediaPath(bytes: real)
        }
        guard let real = realPath(target), seen.insert(real).inserted else { return nil }
        let file: MediaFile
        do {
            file = try MediaFile(target)   // regular files only: a FIFO or device is never opened
        } catch {
            warnings.append("\(path.string): not a regular file: not read")
            return nil
        }
        if file.facts.size > Int64(sidecarCap) {
            warnings.append("\(path.string): \(file.facts.size) bytes, more than the \(sidecarCap)-byte cap: only its first \(sidecarCap) bytes read")
            var bytes = file.bytes(at: 0, count: sidecarCap)
            // Up to the last whole line.
            if let end = bytes.lastIndex(of: UInt8(ascii: "\n")) { bytes.removeSubrange((end + 1)...) }
            return bytes
        }
        return file.bytes(at: 0, count: Int(file.facts.size))
    }

    static func realPath(_ path: MediaPath) -> [UInt8]? {
        guard let resolved = path.withCString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) })
    }

    /// The set `mlib lyrics` shows: of those in `language` (when given), the first synced one by source
    /// (a sidecar .elrc, .lrc, .txt, then SYLT, then LRC text in a tag), else the first unsynced one (the
    /// tags, then a .txt). A sidecar comes first because someone put it beside the file on purpose.
    public static func preferred(_ lyrics: [Lyrics], language: String? = nil) -> Lyrics? {
        let candidates = language.map { l in lyrics.filter { $0.language == l.lowercased() } } ?? lyrics
        let order: [Lyrics.Source] = [.elrc, .lrc, .txt, .sylt, .uslt, .tag]
        func rank(_ l: Lyrics) -> Int { order.firstIndex(of: l.source) ?? order.count }
        if let synced = candidates.filter(\.isSynced).min(by: { rank($0) < rank($1) }) { return synced }
        let plainOrder: [Lyrics.Source] = [.uslt, .tag, .txt, .lrc, .elrc]
        return candidates.min { (plainOrder.firstIndex(of: $0.source) ?? 9) < (plainOrder.firstIndex(of: $1.source) ?? 9) }
    }
}
