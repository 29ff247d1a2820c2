import MediaModel

/// What reading one file gives: the item (tags + stream facts + file facts) and the details a metadata
/// tool shows beyond the item's properties.
public struct ProbeResult: Sendable, Hashable {
    public var item: MediaItem
    /// Every stream in the container, in order.
    public var streams: [StreamInfo]
    /// Embedded pictures (cover art), without their bytes.
    public var pictures: [PictureInfo]
    /// Chapters (M4B/MP4 chapter lists, Matroska editions, ID3v2 CHAP frames), by start time.
    public var chapters: [ChapterInfo]
    /// Set when the file was read only in part (e.g. truncated): the values present are right, others may be missing.
    public var isPartial: Bool
    /// Non-fatal problems, one line each ("TagLib could not read the tags; FFmpeg's used").
    public var warnings: [String]
    /// Which reader supplied the tags: "taglib", "ffmpeg" or "none".
    public var tagSource: String
    /// Tag format(s) as TagLib names them ("ID3v2.4", "Xiph", "MP4", "RIFF INFO"…), when known.
    public var tagFormat: String?
    /// The lyrics in the file's tags (`LyricsReader`'s embedded sets, from this read: no second open), in tag
    /// order. Not the sidecars: the scan reads those from its folder listing.
    public var lyrics: [Lyrics] = []

    /// Why the file cannot be played by this FFmpeg: its first audio stream (or, with none, its first video
    /// stream) has a codec FFmpeg cannot decode. nil when it can. The file is still a media file: its
    /// container's facts and tags are read.
    public var undecodableReason: String? {
        let playable = streams.first { $0.kind == .audio } ?? streams.first { $0.kind == .video && !$0.isAttachedPicture }
        // Streams, but none to play (an MP4 of a subtitle track alone): nothing to decode.
        guard let playable else { return streams.isEmpty ? nil : "no audio or video stream" }
        return playable.undecodable
    }
    public var isDecodable: Bool { undecodableReason == nil }

    public init(item: MediaItem, streams: [StreamInfo] = [], pictures: [PictureInfo] = [], chapters: [ChapterInfo] = [],
                isPartial: Bool = false, warnings: [String] = [], tagSource: String = "none", tagFormat: String? = nil) {
        self.item = item
        self.chapters = chapters
        self.streams = streams
        self.pictures = pictures
        self.isPartial = isPartial
        self.warnings = warnings
        self.tagSource = tagSource
        self.tagFormat = tagFormat
    }
}

public struct StreamInfo: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable { case audio, video, subtitle, attachment, data, unknown }
    public var index: Int
    public var kind: Kind
    public var codec: String
    public var codecLongName: String?
    public var profile: String?
    public var duration: Double?
    public var bitRate: Int64?
    public var sampleRate: Int?
    public var channels: Int?
    public var channelLayout: String?
    public var bitDepth: Int?
    public var sampleFormat: String?
    public var width: Int?
    public var height: Int?
    public var frameRate: Double?
    public var pixelFormat: String?
    public var language: String?
    /// An embedded cover picture carried as a video stream (AV_DISPOSITION_ATTACHED_PIC).
    public var isAttachedPicture: Bool
    /// Why this FFmpeg cannot decode the stream (nil: it can, or it was not asked: the formats read without
    /// FFmpeg, which it decodes).
    public var undecodable: String?
    /// The container's fourcc for the codec, kept for a stream FFmpeg cannot decode.
    public var codecTag: String?

    public init(index: Int, kind: Kind, codec: String) {
        self.index = index
        self.kind = kind
        self.codec = codec
        self.isAttachedPicture = false
    }
}

public struct PictureInfo: Sendable, Hashable, Codable {
    public var mimeType: String
    /// ID3v2/FLAC picture type ("Front Cover", "Other"…).
    public var type: String
    public var size: Int
    public init(mimeType: String, type: String, size: Int) {
        self.mimeType = mimeType
        self.type = type
        self.size = size
    }
}

public struct ChapterInfo: Sendable, Hashable, Codable {
    /// Seconds from the start of the file.
    public var start: Double
    public var end: Double
    public var title: String
    public init(start: Double, end: Double, title: String) {
        self.start = start
        self.end = end
        self.title = title
    }
}
