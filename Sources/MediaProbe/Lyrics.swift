import MediaModel

/// One set of lyrics a file has: from one tag frame, one tag value or one sidecar file, in one language.
/// Synced lyrics have `lines` (start times in ms, after the file's `[offset:]`, sorted); unsynced have only
/// `text`. Every set keeps where it came from, so `mlib info` can say and `mlib lyrics` can choose.
public struct Lyrics: Sendable, Hashable, Codable {
    /// Where the lyrics were read. The raw values are what `mlib lyrics --json` and `mlib info --json` print.
    public enum Source: String, Sendable, Hashable, Codable, CaseIterable {
        /// ID3v2 USLT (unsynced, with a language and a description).
        case uslt
        /// ID3v2 SYLT (synced, with a language, a description and a time stamp format).
        case sylt
        /// A lyrics tag value: Vorbis LYRICS/UNSYNCEDLYRICS, MP4 ©lyr, APE Lyrics, ASF WM/Lyrics (LRC text in it
        /// is read as synced).
        case tag
        /// A sidecar `.lrc` (or `.txt` holding LRC) beside the audio file, with the same stem.
        case lrc
        /// A sidecar `.elrc`: enhanced LRC, with word times.
        case elrc
        /// A sidecar `.txt` of plain text.
        case txt

        public var isSidecar: Bool { self == .lrc || self == .elrc || self == .txt }
    }

    public var source: Source
    /// The tag key or the sidecar's file name ("LYRICS", "song.lrc"); nil for ID3v2 frames.
    public var origin: String?
    /// The language as the source gives it (ID3v2's three-letter code, an LRC `[la:]` header), lower case;
    /// nil when the source says none.
    public var language: String?
    /// ID3v2's content descriptor; nil when empty.
    public var description: String?
    /// The plain text: for synced lyrics their lines' text, one per line.
    public var text: String
    /// Synced lines by start time; nil for unsynced lyrics.
    public var lines: [LyricsLine]?
    /// LRC headers other than the times: ar, ti, al, by, length, offset… (key lower case).
    public var headers: [String: String]
    /// The `[offset:]` in ms that was applied (LRC: a positive offset shows the lines sooner).
    public var offsetMs: Int

    public var isSynced: Bool { lines != nil }

    public init(source: Source, origin: String? = nil, language: String? = nil, description: String? = nil, text: String,
                lines: [LyricsLine]? = nil, headers: [String: String] = [:], offsetMs: Int = 0) {
        self.source = source
        self.origin = origin
        self.language = language.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        self.description = description.flatMap { $0.isEmpty ? nil : $0 }
        self.text = text
        self.lines = lines
        self.headers = headers
        self.offsetMs = offsetMs
    }
}

public struct LyricsLine: Sendable, Hashable, Codable {
    /// Milliseconds from the start of the audio (never negative: an offset that would make it so is clamped).
    public var startMs: Int
    public var text: String
    /// Enhanced LRC's word times (`<mm:ss.xx>word`); nil when the line has none.
    public var words: [LyricsWord]?
    /// The line starts after the end of the audio (kept, but a player never reaches it).
    public var pastEnd: Bool

    public init(startMs: Int, text: String, words: [LyricsWord]? = nil, pastEnd: Bool = false) {
        self.startMs = startMs
        self.text = text
        self.words = words
        self.pastEnd = pastEnd
    }
}

public struct LyricsWord: Sendable, Hashable, Codable {
    public var startMs: Int
    public var text: String
    public init(startMs: Int, text: String) {
        self.startMs = startMs
        self.text = text
    }
}

extension Lyrics {
    /// `mlib lyrics --json` and `mlib info --json` ("lyrics"): {"source", "origin", "language", "description",
    /// "synced", "offset", "headers", "text", "lines": [{"start", "text", "words": [{"start", "text"}], "pastEnd"}]}.
    /// `lines` only for synced lyrics; `words` only where the line has word times.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("source", .string(source.rawValue)), ("origin", origin.map(JSONValue.string) ?? .null),
            ("language", language.map(JSONValue.string) ?? .null), ("description", description.map(JSONValue.string) ?? .null),
            ("synced", .bool(isSynced)), ("offset", .int(Int64(offsetMs))),
            ("headers", .object(headers.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("text", .string(text)),
        ]
        if let lines {
            members.append(("lines", .array(lines.map { line in
                var l: [(String, JSONValue)] = [("start", .int(Int64(line.startMs))), ("text", .string(line.text))]
                if let words = line.words {
                    l.append(("words", .array(words.map { .object([("start", .int(Int64($0.startMs))), ("text", .string($0.text))]) })))
                }
                if line.pastEnd { l.append(("pastEnd", .bool(true))) }
                return .object(l)
            })))
        }
        return .object(members)
    }

    /// The lyrics as LRC: `[mm:ss.xxx]` per line (milliseconds kept exactly), enhanced `<mm:ss.xxx>` word
    /// times where there are any, the headers first; the offset is already applied, so none is written.
    /// Unsynced lyrics are their text.
    public var lrc: String {
        guard let lines else { return text.hasSuffix("\n") || text.isEmpty ? text : text + "\n" }
        var out = ""
        for key in ["ar", "ti", "al", "au", "by", "length"] { if let v = headers[key] { out += "[\(key):\(v)]\n" } }
        if let language { out += "[la:\(language)]\n" }
        for line in lines {
            out += "[" + LRCParser.timeTag(line.startMs) + "]"
            if let words = line.words {
                out += words.map { "<" + LRCParser.timeTag($0.startMs) + ">" + $0.text }.joined()
            } else {
                out += line.text
            }
            out += "\n"
        }
        return out
    }
}
