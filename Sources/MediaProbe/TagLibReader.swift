import CTagLib
import MediaModel

/// Tags, audio properties and pictures from TagLib (through the CTagLib C shim). The handle is opened and
/// closed inside `read`, so nothing TagLib owns escapes.
struct TagLibReader {
    struct Result: Sendable {
        var tagFormat: String
        var properties: [(String, String)]
        var lengthMs: Int?
        var bitRateKbps: Int?
        var sampleRate: Int?
        var channels: Int?
        var bitsPerSample: Int?
        var pictures: [PictureInfo]
        var chapters: [ChapterInfo] = []
        /// TagLib refused the file (a FLAC whose metadata blocks it could not walk); they were read by their
        /// structure. The file is damaged.
        var readByStructure = false
        /// ID3v2 USLT/SYLT frames (issue 41; `LyricsReader` reads them).
        var lyricsFrames: [LyricsFrame] = []
    }

    /// nil when TagLib cannot read the file as `hint`. TagLib reads `file`'s descriptor and its shared
    /// head and tail windows.
    /// With `audioProperties` false only the tags are read (TagLib's MPEG reader then searches for no frame:
    /// an MP3 cut off after its tag still shows its tags).
    static func read(_ file: MediaFile, hint: String?, audioProperties: Bool = true) -> Result? {
        if audioProperties, let hint, !FormatSniffer.tagLibCanOpen(file, as: hint) { return nil }
        return read(file) { name, h, t in
            func open(_ hint: UnsafePointer<CChar>?) -> OpaquePointer? {
                mlib_tl_open(file.descriptor, file.facts.size, name, hint, audioProperties ? 1 : 0, h.baseAddress, h.count, t.baseAddress, t.count)
            }
            return hint.map { $0.withCString(open) } ?? open(nil)
        }
    }

    /// The ID3v2 tag at `offset` (DSF, DSDIFF: formats TagLib has no class for); tags only.
    static func readID3v2(_ file: MediaFile, at offset: Int64) -> Result? {
        read(file) { name, h, t in
            mlib_tl_open_id3v2(file.descriptor, file.facts.size, name, offset, h.baseAddress, h.count, t.baseAddress, t.count)
        }
    }

    private static func read(_ file: MediaFile,
                             open: (UnsafePointer<CChar>, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> OpaquePointer?) -> Result? {
        let head = file.head
        let tail = file.facts.size > Int64(head.count) ? file.tail : []
        let handle = head.withUnsafeBufferPointer { h in
            tail.withUnsafeBufferPointer { t in file.path.withCString { open($0, h, t) } }
        }
        guard let handle else { return nil }
        defer { mlib_tl_close(handle) }
        var properties: [(String, String)] = []
        for i in 0..<mlib_tl_property_count(handle) {
            properties.append((String(cString: mlib_tl_property_key(handle, i)), String(cString: mlib_tl_property_value(handle, i))))
        }
        var pictures: [PictureInfo] = []
        for i in 0..<mlib_tl_picture_count(handle) {
            pictures.append(PictureInfo(mimeType: String(cString: mlib_tl_picture_mime(handle, i)),
                                        type: pictureTypeName(mlib_tl_picture_type(handle, i)),
                                        size: mlib_tl_picture_size(handle, i)))
        }
        var chapters = (0..<mlib_tl_chapter_count(handle)).map { i in
            ChapterInfo(start: Double(mlib_tl_chapter_start_ms(handle, i)) / 1000, end: Double(mlib_tl_chapter_end_ms(handle, i)) / 1000,
                        title: String(cString: mlib_tl_chapter_title(handle, i)))
        }
        let audio = mlib_tl_has_audio_properties(handle) != 0
        func positive(_ v: Int32) -> Int? { audio && v > 0 ? Int(v) : nil }
        // No ID3v2 CHAP frames: Vorbis comments' CHAPTERxxx (issue 41).
        if chapters.isEmpty { chapters = ChapterComments.read(properties, lengthMs: positive(mlib_tl_length_ms(handle))) }
        return Result(tagFormat: String(cString: mlib_tl_tag_format(handle)), properties: properties,
                      lengthMs: positive(mlib_tl_length_ms(handle)), bitRateKbps: positive(mlib_tl_bitrate(handle)),
                      sampleRate: positive(mlib_tl_sample_rate(handle)), channels: positive(mlib_tl_channels(handle)),
                      bitsPerSample: positive(mlib_tl_bits_per_sample(handle)), pictures: pictures, chapters: chapters,
                      readByStructure: mlib_tl_read_by_structure(handle) != 0, lyricsFrames: LyricsFrame.all(handle))
    }

    /// The TagLib class for what FFmpeg's content sniffing found (never the file extension: an Ogg file
    /// named .mp3 must be read as Ogg). nil = a format TagLib 1.13 does not know (Matroska, WebM…).
    /// `firstStream`: the kind of the container's first stream, when known. TagLib's Ogg classes read the
    /// first logical stream only: an Ogg whose first stream is video (Theora, then Vorbis: an `.ogv`) is not
    /// theirs, and their refusal of it says nothing of damage (issue 49: such a file was flagged partial).
    static func hint(formatName: String, firstAudioCodec: String?, firstStream: StreamInfo.Kind? = nil) -> String? {
        let names = DemuxerNames(formatName)
        if names.contains("mp3") { return "mpeg" }
        if names.contains("flac") { return "flac" }
        if names.contains("ogg") {
            if let firstStream, firstStream != .audio { return nil }
            switch firstAudioCodec {
            case "vorbis": return "ogg-vorbis"
            case "opus": return "ogg-opus"
            case "flac": return "ogg-flac"
            case "speex": return "ogg-speex"
            default: return nil
            }
        }
        if names.contains("mp4") || names.contains("m4a") || names.contains("mov") { return "mp4" }
        if names.contains("wav") { return "wav" }
        if names.contains("aiff") { return "aiff" }
        if names.contains("wv") { return "wavpack" }
        if names.contains("ape") { return "ape" }
        if names.contains("asf") { return "asf" }
        if names.contains("mpc") || names.contains("mpc8") { return "mpc" }
        if names.contains("tta") { return "tta" }
        return nil
    }

    static func pictureTypeName(_ type: Int32) -> String {
        let names = ["Other", "File Icon", "Other File Icon", "Front Cover", "Back Cover", "Leaflet Page", "Media",
                     "Lead Artist", "Artist", "Conductor", "Band", "Composer", "Lyricist", "Recording Location",
                     "During Recording", "During Performance", "Movie Screen Capture", "Coloured Fish",
                     "Illustration", "Band Logo", "Publisher Logo"]
        return type >= 0 && Int(type) < names.count ? names[Int(type)] : "Other"
    }
}
