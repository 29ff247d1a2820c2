import CTagLib
import Glibc

/// One file's tags opened for editing through TagLib (`mlib_tag_writer.h`): TagLib reads the file and
/// renders the new tags into memory; the file itself is only read here. What to do with the result on
/// disk is `SafeFileWriter`'s business.
final class TagFile {
    /// What saving produced.
    enum Rendering {
        /// Byte ranges to overwrite (offset, new bytes); the file keeps its length.
        case patches([(offset: Int64, bytes: [UInt8])])
        /// The whole new file (its length changed: the tag outgrew its padding).
        case content([UInt8])
    }

    private let handle: OpaquePointer
    private let fd: Int32
    private let size: Int64
    private let path: String
    /// TagLib's class for the file ("mpeg", "flac", "ogg", "mp4"…), from its name.
    let format: String

    /// Opens `fd` (read-only; the caller closes it after this object is gone) as the format its name says
    /// (`fileExtension`, when given: the exact name's; `path` is for messages).
    init(fd: Int32, size: Int64, path: String, fileExtension: String? = nil) throws {
        guard let format = Self.format(forExtension: fileExtension ?? Self.fileExtension(path)) else {
            throw TagWriteError.unsupportedFormat(path)
        }
        guard let handle = mlib_tw_open(fd, size, path, format) else { throw TagWriteError.unreadable(path) }
        self.handle = handle
        self.format = format
        self.fd = fd
        self.size = size
        self.path = path
    }

    deinit { mlib_tw_close(handle) }

    /// TagLib's class per file extension. Formats TagLib 1.13 can write; Matroska, DSF, MPC and the
    /// tracker formats are not offered.
    static func format(forExtension ext: String) -> String? {
        switch ext {
        case "mp3", "mp2", "mpga": "mpeg"
        case "flac": "flac"
        case "ogg", "oga": "ogg"
        case "opus": "ogg-opus"
        case "m4a", "m4b", "m4p", "mp4", "m4r", "alac": "mp4"
        case "wav", "wave": "wav"
        case "aif", "aiff", "aifc": "aiff"
        case "wv": "wavpack"
        case "ape": "ape"
        case "wma", "asf": "asf"
        default: nil
        }
    }

    static func fileExtension(_ path: String) -> String {
        guard let name = path.split(separator: "/").last, let dot = name.lastIndex(of: ".") else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// The tag types present ("ID3v2.3+ID3v1", "Xiph", "MP4"…).
    var tagFormat: String { String(cString: mlib_tw_tag_format(handle)) }

    /// Whether the format keeps free-form keys (Vorbis comments, APE): totals go in TRACKTOTAL/DISCTOTAL.
    /// Elsewhere (ID3v2 TRCK/TPOS, MP4 trkn/disk, ASF, RIFF INFO) they go in TRACKNUMBER "n/total".
    var keepsTotalsApart: Bool { format.hasPrefix("ogg") || format == "flac" || format == "ape" || format == "wavpack" }

    /// Keys this file's tag holds one value of: ASF's content description (title, author, copyright,
    /// description) and every RIFF INFO field. Their values are joined with "; " (mlib's value separator,
    /// which its reader splits again) where TagLib would join them with a space and lose the boundary.
    func isSingleValued(_ key: String) -> Bool {
        if format == "asf" { return ["TITLE", "ARTIST", "COPYRIGHT", "COMMENT"].contains(key) }
        if format == "wav" { return !tagFormat.contains("ID3v2") && tagFormat.contains("RIFF INFO") }
        return false
    }

    /// TagLib's PropertyMap, one entry per value, in order.
    var properties: [(key: String, value: String)] {
        (0..<mlib_tw_property_count(handle)).map {
            (String(cString: mlib_tw_property_key(handle, $0)), String(cString: mlib_tw_property_value(handle, $0)))
        }
    }

    /// Replaces the whole map (TagLib's setProperties); returns the keys this format could not store.
    func setProperties(_ map: [(key: String, value: String)]) -> [String] {
        mlib_tw_begin(handle)
        for (key, value) in map { mlib_tw_add(handle, key, value) }
        let refused = mlib_tw_apply(handle)
        return (0..<refused).map { String(cString: mlib_tw_unsupported_key(handle, $0)) }
    }

    /// The key of the tag mlib writes ratings to ("POPM", "FMPS_RATING", "rate", "WM/SharedUserRating"), nil
    /// when this file has none (a WAV tagged in RIFF INFO only).
    var ratingKey: String? {
        let key = String(cString: mlib_tw_rating_key(handle))
        return key.isEmpty ? nil : key
    }

    /// The value there, as the format stores it ("196", "0.8", "80"); nil when there is none.
    var ratingValue: String? {
        let value = String(cString: mlib_tw_rating_value(handle))
        return value.isEmpty ? nil : value
    }

    /// Writes a rating of `stars` (1–5) in the format's convention (mlib(1), TAGS, Ratings). False when the
    /// file has no place for one.
    func setRating(stars: Int) -> Bool { mlib_tw_set_rating(handle, Int32(stars)) == 1 }

    var pictureCount: Int { Int(mlib_tw_picture_count(handle)) }

    func removePictures() { mlib_tw_remove_pictures(handle) }

    /// Adds a picture (`type` in ID3v2/FLAC numbering: 3 = front cover). False when the format has no place.
    func addPicture(_ data: [UInt8], mime: String, type: Int32 = 3) -> Bool {
        data.withUnsafeBufferPointer { mlib_tw_add_picture(handle, mime, type, $0.baseAddress, $0.count) == 1 }
    }

    /// Renders the tags (no tag type added that the file did not have, ID3v2 version kept); a tag that
    /// fits in the old one's padding stays in place even where TagLib shrank the padding (PaddingRefit).
    func render() throws -> Rendering {
        guard mlib_tw_save(handle) == 1 else { throw TagWriteError.tagLibRefused }
        let original: MP4FlagAtoms.Reader = { [fd] in FileIO.read(fd, count: $1, at: $0) }
        let kept = format == "mp4" ? MP4FlagAtoms.toKeep(size: size, read: original) : []
        if mlib_tw_changes_length(handle) == 1 {
            // A tag at the start that shrank (TagLib gives up padding): grown back to the length it had, the
            // edit is in place, and only the tag's bytes were read and compared, not the audio's.
            let replaces = mlib_tw_head_replaces(handle)
            if replaces >= 0, kept.isEmpty, format == "mpeg" || format == "flac" {
                let head = Array(UnsafeBufferPointer(start: mlib_tw_head_data(handle), count: Int(mlib_tw_head_size(handle))))
                if let fitted = PaddingRefit.refit(head, originalSize: replaces, format: format),
                   let patches = PaddingRefit.patches(fitted, against: fd) {
                    return .patches(patches + self.patches())
                }
            }
            let count = Int(mlib_tw_content_size(handle))
            guard count >= 0 else { throw TagWriteError.changedMeanwhile(path) }
            let data = mlib_tw_content_data(handle)
            var content = count == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: count))
            if format == "ogg" { OggFLACCommentFlag.restore(&content) { FileIO.read(fd, count: $1, at: $0) } }
            if !kept.isEmpty { MP4FlagAtoms.restore(&content, kept) }
            if format == "asf" { ASFEmptyFields.restore(&content, original: original, originalSize: size) }
            if let fitted = PaddingRefit.refit(content, originalSize: size, format: format),
               let patches = PaddingRefit.patches(fitted, against: fd) {
                return .patches(patches)
            }
            return .content(content)
        }
        var patches = self.patches()
        if !kept.isEmpty { MP4FlagAtoms.restore(&patches, size: size, read: original, kept) }
        if format == "ogg", !patches.isEmpty, OggFLACCommentFlag.applies(original: { FileIO.read(self.fd, count: $1, at: $0) }),
           var content = FileIO.read(fd, count: Int(size), at: 0) {
            // An Ogg FLAC comment of the same length: the flag TagLib drops (OggFLACCommentFlag) is checked
            // on the whole new file, whose differences from the old are then the patches.
            for patch in patches { content.replaceSubrange(Int(patch.offset)..<Int(patch.offset) + patch.bytes.count, with: patch.bytes) }
            OggFLACCommentFlag.restore(&content) { FileIO.read(fd, count: $1, at: $0) }
            if let fixed = PaddingRefit.patches(content, against: fd) { return .patches(fixed) }
            return .content(content)
        }
        return .patches(patches)
    }

    /// The patches `mlib_tw_save` left (in the file's offsets).
    private func patches() -> [(offset: Int64, bytes: [UInt8])] {
        (0..<mlib_tw_patch_count(handle)).map { i in
            let length = mlib_tw_patch_length(handle, i)
            return (offset: mlib_tw_patch_offset(handle, i), bytes: Array(UnsafeBufferPointer(start: mlib_tw_patch_data(handle, i), count: length)))
        }
    }
}
