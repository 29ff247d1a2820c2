import Glibc
import MediaDecode
import MediaModel
import MediaProbe

/// The check that a tag write changed what was asked and nothing else (issue 46): the file is read as
/// `mlib info` reads it (`MediaProbe`; an MP3 or FLAC whose frames are compared, as the index reads it) before the write and the new bytes after (the copy before its rename,
/// or the file right after an in-place write, while its old bytes are still at hand), and every difference
/// outside the fields asked is a reason to keep the old file:
/// - every key of the reader's tag map (`MediaItem.tags`: the union of the file's tags, ID3v1 values behind
///   an ID3v2 tag included), except the keys the edit names and the keys the reader takes the same field
///   from (a comment in DESCRIPTION, a track total in TRACKTOTAL…);
/// - the tag-read properties the map does not show (media kind, artwork, tag rating), the same way;
/// - what the container says: the streams (kind, codec, rate, channels, depth, size), the length (within
///   0.1 s or 0.5 %: a length estimated from the file size moves with the tag's size), partial or not,
///   chapters, the tag types present (an ID3v2.2 tag written as 2.4 aside: TagLib cannot write 2.2; nor
///   the tag a file without one gets from the edit);
/// - the pictures (type, MIME type, size), unless the edit replaces or removes them;
/// - the first 16 KiB of the audio payload (`AudioPayload`, the scanner's evidence of the same audio), and
///   every packet the demuxer hands a decoder (`AudioPacketDigest`): the same packets decode to the same
///   audio, and a file whose container no longer reaches its audio (a FORM size cut short, chunk offsets
///   that miss) hands over others or none. An MP3's or FLAC's frames are compared directly instead
///   (`Snapshot.init(_:writing:)`): the same proof without demuxing.
/// A file that read before and does not read after is a difference; one that did not read before is
/// compared by the payload alone.
struct WriteCheck: Sendable {
    /// Keys of the reader's tag map the edit may change.
    let tagKeys: Set<String>
    /// Properties the edit may change.
    let properties: Set<MediaProperty>
    let picturesMayChange: Bool
    /// Keys set or added to, each with the other keys the reader reads that same field from.
    let sameField: [(key: String, others: [String])]

    /// Keys the reader reads one field from (`TagMapping`): a field held in one of the others is the
    /// field a write of the key must change, not add beside it.
    static let sameFieldKeys: [String: [String]] = [
        "COMMENT": ["DESCRIPTION"], "ALBUMARTIST": ["ALBUM ARTIST"], "GROUPING": ["CONTENTGROUP"], "LYRICS": ["UNSYNCEDLYRICS"],
    ]

    /// The reader's keys of one field: the key written and the keys `TagMapping` reads the same field from.
    static let readerKeys: [String: [String]] = [
        "COMMENT": ["COMMENT", "DESCRIPTION"],
        "ALBUMARTIST": ["ALBUMARTIST", "ALBUM ARTIST"],
        "GROUPING": ["GROUPING", "CONTENTGROUP"],
        "LYRICS": ["LYRICS", "UNSYNCEDLYRICS"],
        "TRACKNUMBER": ["TRACKNUMBER", "TRACKTOTAL", "TOTALTRACKS"],
        "TRACKTOTAL": ["TRACKNUMBER", "TRACKTOTAL", "TOTALTRACKS"],
        "DISCNUMBER": ["DISCNUMBER", "DISCTOTAL", "TOTALDISCS"],
        "DISCTOTAL": ["DISCNUMBER", "DISCTOTAL", "TOTALDISCS"],
        "DATE": ["DATE", "YEAR"],
        "COMPILATION": ["COMPILATION", "TCMP", "ITUNESCOMPILATION"],
    ]

    /// The rating keys the reader takes a tag rating from (`TagRating.keys`).
    static let ratingKeys = ["POPM", "FMPS_RATING", "RATE", "WM/SHAREDUSERRATING", "RATING"]

    init(_ edit: TagEdit) {
        var keys: Set<String> = []
        var properties: Set<MediaProperty> = []
        for change in edit.changes {
            let written = Self.readerKeys[change.key] ?? [change.key]
            keys.formUnion(written)
            for (property, key) in TagFieldMapping.keys where written.contains(key) { properties.insert(property) }
            // The media kind is read from the genre ("Podcast") and from MEDIA_TYPE.
            if change.key == "GENRE" || change.key == "MEDIA_TYPE" { properties.insert(.mediaType) }
        }
        if let rating = edit.rating, rating > 0 {
            keys.formUnion(Self.ratingKeys)
            properties.insert(.tagRating)
        }
        sameField = edit.changes.compactMap { change in
            if case .remove = change.operation { return nil }
            return Self.sameFieldKeys[change.key].map { (change.key, $0) }
        }
        picturesMayChange = edit.picture != nil || edit.removePictures
        if picturesMayChange { properties.insert(.hasArtwork) }
        tagKeys = keys
        self.properties = properties
    }

    /// The bytes that decide an MP3's or FLAC's audio (`AudioPayload.codedRanges`): where they lie, and for a
    /// rewritten file a hash of them.
    struct CodedAudio: Sendable, Equatable {
        var ranges: [Range<Int64>]
        /// A hash of the ranges' bytes; nil where their places alone are compared (a write in place that
        /// wrote none of them: their bytes are the same as long as their places are).
        var hash: Int?

        init(_ file: MediaFile, hashed: Bool) {
            ranges = AudioPayload.codedRanges(of: file) ?? []
            guard hashed else { return }
            // LaneHash, each chunk's seeded with the hash so far (SipHash, Swift's `Hasher`, was a tenth of a
            // rewritten edit's CPU: the audio is hashed before and after).
            var hash: UInt64 = 0
            for range in ranges {
                var at = range.lowerBound
                while at < range.upperBound {
                    let bytes = file.bytes(at: at, count: Int(min(1 << 20, range.upperBound - at)))
                    guard !bytes.isEmpty else { break }
                    hash = bytes.withUnsafeBytes { LaneHash.hash($0, seed: hash) }
                    at += Int64(bytes.count)
                }
                hash = LaneHash.combine(UInt64(at - range.lowerBound), hash, 0)
            }
            self.hash = Int(bitPattern: UInt(hash))
        }

        /// The same audio: the same places (in place), or the same lengths and bytes (rewritten).
        func same(as other: CodedAudio?) -> Bool {
            guard let other, !ranges.isEmpty else { return false }
            if hash == nil { return ranges == other.ranges }
            return ranges.map(\.count) == other.ranges.map(\.count) && hash == other.hash
        }

        var shown: String { ranges.isEmpty ? "none" : ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ") }
    }

    /// What the check compares of one file.
    struct Snapshot: Sendable {
        var result: ProbeResult?
        /// Why the file did not read, when it did not.
        var failure: String?
        var payload: [UInt8]?
        var packets: AudioPacketDigest?
        /// Read instead of the packets for an MP3 or FLAC (`CodedAudio`), where that proves the same.
        var coded: CodedAudio?
        /// What the file system said when the file was opened.
        var facts: FileFacts?
        /// The file's content identity, read after a write (`after`) where `probed` is made: the refresh's.
        var identity: ContentIdentity?

        /// The file as a scan reads it, when `result` was read so (`.library`, where the frames are
        /// compared): what an index refresh after the write can use instead of reading the file again.
        var probed: ProbedFile? {
            guard coded != nil, let result, let facts else { return nil }
            return ProbedFile(facts: facts, result: result, identity: identity)
        }

        /// Reads `path` as `mlib info` does (`.streams`: FFmpeg's view of the streams too) and how its audio
        /// reaches a decoder, before a write. An MP3 or FLAC whose audio is self-delimiting frames found right
        /// after the tags (`AudioPayload.codedRanges`) hands a decoder the same packets as long as the bytes
        /// of those ranges are the same and are found the same way: for a write in place (`written`: the
        /// byte ranges it changes, the file's size kept) that touches none of them, their places are compared
        /// after the write; for a rewrite (`written` nil), their lengths and a hash of their bytes. Every other
        /// file has every packet the demuxer hands a decoder digested (`AudioPacketDigest`), before and after.
        /// Demuxing every packet twice was three quarters of a padded edit's time (tag-bench: 926 edits/s
        /// without the check, 234 with it) and proves nothing more for these files.
        init(_ path: MediaPath, writing written: [Range<Int64>]?) {
            self.init(path) { file in
                let coded = CodedAudio(file, hashed: written == nil)
                guard !coded.ranges.isEmpty else { return nil }
                if let written, written.contains(where: { w in coded.ranges.contains { $0.overlaps(w) } }) { return nil }
                return coded
            }
        }

        /// The written file read as `before` was: its coded audio the same way where `before` has it, else its
        /// packets. `identified`: its content identity made too, for an index refresh (`TagWriter.readsForRefresh`).
        static func after(_ path: MediaPath, _ before: Snapshot, identified: Bool = false) -> Snapshot {
            Snapshot(path, identified: identified) { file in before.coded.map { CodedAudio(file, hashed: $0.hash != nil) } }
        }

        /// The rewrite's copy (`.NAME.mlib-tag-TOKEN`) read as the file it will become, `original`: the
        /// reader takes a file's type from its name where the content cannot say (an MP3 with junk before
        /// its first frame is found only in a file named as MPEG audio; m4b beside m4a), so the copy is read
        /// through a symbolic link in `$TMPDIR` named with the original's extension, removed right after.
        /// Read under the copy's own name, an MP3 with junk before its audio lost its tag types and its
        /// length, and the write was refused (issue 46).
        static func after(copy: MediaPath, of original: MediaPath, _ before: Snapshot, identified: Bool = false) -> Snapshot {
            let ext = original.fileExtension
            guard !ext.isEmpty, copy.fileExtension != ext, let link = SymbolicName.make(to: copy, extension: ext) else {
                return after(copy, before, identified: identified)
            }
            defer { _ = link.withCString(unlink) }
            return after(link, before, identified: identified)
        }

        /// `identified`: the content identity is made too where the read is one a refresh can use.
        private init(_ path: MediaPath, identified: Bool = false, coded: (MediaFile) -> CodedAudio?) {
            do {
                let file = try MediaFile(path)
                facts = file.facts
                payload = AudioPayload.leadingBytes(of: file)
                self.coded = coded(file)
                if self.coded == nil { packets = AudioPacketDigest.of(path) }
                if identified, self.coded != nil { identity = ContentIdentity(file, leadingBytes: payload) }
                // Where the frames are compared, the streams are read as the index reads them (`.library`:
                // TagLib and mlib's own header readers, no FFmpeg): FFmpeg's view of an MP3's or FLAC's
                // stream comes from bytes inside the compared ranges (the frame headers, STREAMINFO), and
                // the check opened FFmpeg twice a file for it (issue 50: tag writes at mutagen's rate). The tags, properties,
                // pictures, chapters and tag types compared are the same either way (MediaProbe holds the
                // two details' items equal); before and after are read alike (`after` keeps `coded`).
                result = try MediaProbe.probe(file, detail: self.coded == nil ? .streams : .library)
            } catch {
                failure = error.reason
            }
        }
    }

    /// The properties compared outside the tag map: tag-read ones the map does not show, and the stream's.
    /// Not compared: the file's size and time, the bit rate (a file average moves with the tag's size) and
    /// the partial read's reason (it may name offsets).
    static let comparedProperties: [MediaProperty] = [
        .mediaType, .hasArtwork, .tagRating, .container, .audioCodec, .videoCodec, .sampleRate, .channels,
        .bitDepth, .width, .height, .frameRate, .fileType, .isPartial, .chapterCount,
    ]

    /// Each difference outside what the edit may change, as "what: old → new"; [] when there is none.
    func differences(_ before: Snapshot, _ after: Snapshot) -> [String] {
        var out: [String] = []
        if before.payload != after.payload { out.append("the audio payload (its first \(AudioPayload.window / 1024) KiB)") }
        if let old = before.coded {
            if !old.same(as: after.coded) { out.append("the audio's frames (bytes \(old.shown) → \(after.coded?.shown ?? "none"))") }
        } else if let old = before.packets, old != after.packets,
           !(Self.lastPacketHoldsTheTag(before) && old.packets == after.packets?.packets && old.hashBeforeLast == after.packets?.hashBeforeLast) {
            out.append("the audio packets (\(old) → \(after.packets.map { "\($0)" } ?? "none read"))")
        }
        guard let old = before.result else { return out }
        guard let new = after.result else {
            out.append("the file no longer reads (\(after.failure ?? "unknown"))")
            return out
        }
        for key in Set(old.item.tags.keys).union(new.item.tags.keys).sorted() where !tagKeys.contains(key) {
            if picturesMayChange, Self.isPictureKey(key) { continue }
            let a = old.item.tags[key], b = new.item.tags[key]
            if a != b, !spellsAnAskedKey(key, old.item.tags, new.item.tags) { out.append("\(key): \(Self.shown(a)) → \(Self.shown(b))") }
        }
        // A field the file held under another key only, now also under the key written: two values of one
        // field (a FLAC's comment in DESCRIPTION, a new COMMENT beside it), the old one still read by others.
        for (key, others) in sameField where old.item.tags[key] == nil {
            for other in others {
                if let stale = old.item.tags[other], new.item.tags[other] == stale, let written = new.item.tags[key], written != stale {
                    out.append("\(other): \(Self.shown(stale)) kept beside the new \(key) (the file holds this field in \(other))")
                }
            }
        }
        for property in Self.comparedProperties where !properties.contains(property) {
            let a = old.item[property], b = new.item[property]
            if a != b { out.append("\(property.rawValue): \(Self.shown(a?.description)) → \(Self.shown(b?.description))") }
        }
        for property in [MediaProperty.playbackDuration, .declaredDuration] {
            let a = old.item[property]?.real, b = new.item[property]?.real
            if !Self.sameLength(a, b) { out.append("\(property.rawValue): \(Self.shown(a.map { "\($0)" })) → \(Self.shown(b.map { "\($0)" }))") }
        }
        // Pictures are compared below: an attached picture's stream, and WavPack's or APE's cover that FFmpeg
        // shows as an attachment, are not audio.
        let streams = { (r: ProbeResult) in r.streams.filter { !$0.isAttachedPicture && $0.kind != .attachment }.map(Self.streamFacts) }
        if streams(old) != streams(new) {
            out.append("streams: \(streams(old).joined(separator: ", ")) → \(streams(new).joined(separator: ", "))")
        }
        if !picturesMayChange, old.pictures != new.pictures {
            let shown = { (p: [PictureInfo]) in p.isEmpty ? "none" : p.map { "\($0.type) \($0.mimeType) \($0.size) B" }.joined(separator: ", ") }
            out.append("pictures: \(shown(old.pictures)) → \(shown(new.pictures))")
        }
        if old.chapters != new.chapters { out.append("chapters: \(old.chapters.count) → \(new.chapters.count)") }
        let oldFormat = Self.tagTypes(old.tagFormat), newFormat = Self.tagTypes(new.tagFormat)
        // A file that had no tag gets one when the edit sets a field: that tag is what was asked.
        if oldFormat != newFormat, !(oldFormat.isEmpty && !tagKeys.isEmpty),
           !(oldFormat.contains("ID3v2.2") && oldFormat.replacingOccurrences(of: "ID3v2.2", with: "ID3v2.4") == newFormat) {
            out.append("tag types: \(Self.shown(old.tagFormat)) → \(Self.shown(new.tagFormat))")
        }
        return out
    }

    /// Keys a reader may show a picture under (APE's binary items, Vorbis' picture blocks and legacy cover):
    /// compared as pictures, not as text, when the edit replaces or removes the pictures.
    static func isPictureKey(_ key: String) -> Bool {
        key.hasPrefix("COVER ART") || ["METADATA_BLOCK_PICTURE", "COVERART", "COVERARTMIME", "WM/PICTURE", "PICTURE", "APIC"].contains(key)
    }

    /// Monkey's Audio: FFmpeg's last packet runs to the end of the file, its APEv2 tag included.
    static func lastPacketHoldsTheTag(_ snapshot: Snapshot) -> Bool {
        snapshot.result?.streams.contains { $0.codec == "ape" } == true
    }

    /// A key outside those asked that holds, before and after, what an asked key holds: the same field in
    /// another reader's spelling (FFmpeg's TMOO or WM/MOOD beside TagLib's MOOD).
    func spellsAnAskedKey(_ key: String, _ old: [String: String], _ new: [String: String]) -> Bool {
        tagKeys.contains { asked in old[asked] == old[key] && new[asked] == new[key] && new[key] != nil }
    }

    static func tagTypes(_ format: String?) -> String { format ?? "" }

    static func streamFacts(_ s: StreamInfo) -> String {
        "#\(s.index) \(s.kind.rawValue) \(s.codec) \(s.sampleRate.map(String.init) ?? "-") Hz \(s.channels.map(String.init) ?? "-") ch"
            + (s.bitDepth.map { " \($0) bit" } ?? "") + (s.width.map { " \($0)x\(s.height ?? 0)" } ?? "")
    }

    /// Lengths within 0.1 s or 0.5 % of each other (both unknown counts as the same).
    static func sameLength(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= max(0.1, 0.005 * max(a, b))
    }

    static func shown(_ value: String?) -> String {
        guard let value else { return "(none)" }
        return value.count > 40 ? "\"\(value.prefix(40))…\"" : "\"\(value)\""
    }
}
