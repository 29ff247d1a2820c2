import MediaModel

/// Turns tags from any source into one vocabulary: upper-case Vorbis-comment style keys (what TagLib's
/// PropertyMap already uses), then into `MediaProperty` values.
enum TagMapping {
    /// FFmpeg's per-muxer key spellings (ID3 via lavf, MP4 atoms, Matroska upper case, RIFF INFO) → canonical.
    static let ffmpegKeys: [String: String] = [
        "album_artist": "ALBUMARTIST", "album artist": "ALBUMARTIST", "albumartist": "ALBUMARTIST",
        "track": "TRACKNUMBER", "tracknumber": "TRACKNUMBER", "part_number": "TRACKNUMBER",
        "totaltracks": "TRACKTOTAL", "tracktotal": "TRACKTOTAL", "total_parts": "TRACKTOTAL",
        "disc": "DISCNUMBER", "disk": "DISCNUMBER", "discnumber": "DISCNUMBER",
        "totaldiscs": "DISCTOTAL", "disctotal": "DISCTOTAL",
        "date": "DATE", "year": "DATE", "date_released": "DATE", "icrd": "DATE",
        "compilation": "COMPILATION", "tcmp": "COMPILATION", "cpil": "COMPILATION",
        "comment": "COMMENT", "tbpm": "BPM", "bpm": "BPM", "tmpo": "BPM",
        "lyrics": "LYRICS", "unsyncedlyrics": "LYRICS", "grouping": "GROUPING", "tit1": "GROUPING",
        "musicbrainz album id": "MUSICBRAINZ_ALBUMID", "musicbrainz artist id": "MUSICBRAINZ_ARTISTID",
        "musicbrainz album artist id": "MUSICBRAINZ_ALBUMARTISTID",
        "musicbrainz release group id": "MUSICBRAINZ_RELEASEGROUPID",
        "musicbrainz release track id": "MUSICBRAINZ_RELEASETRACKID",
        "musicbrainz track id": "MUSICBRAINZ_TRACKID",
    ]

    /// Container bookkeeping FFmpeg reports as metadata; not tags a user wrote.
    static let ffmpegNoise: Set<String> = [
        "MAJOR_BRAND", "MINOR_VERSION", "COMPATIBLE_BRANDS", "HANDLER_NAME", "VENDOR_ID", "LANGUAGE", "DURATION",
        "NUMBER_OF_FRAMES", "NUMBER_OF_BYTES", "BPS", "ENCODER_OPTIONS", "CREATION_TIME",
    ]

    static func canonicalFFmpegKey(_ key: String) -> String? {
        // MP4's `rtng` atom, which FFmpeg names "rating" (in lower case, unlike a Vorbis comment or Matroska
        // RATING), is the iTunes content advisory (explicit/clean), not a star rating: TagLib's name for it.
        if key == "rating" { return "ITUNESADVISORY" }
        let lower = key.lowercased()
        if let k = ffmpegKeys[lower] { return k }
        if lower.hasPrefix("lyrics-") { return "LYRICS" }   // ID3 USLT with a language: "lyrics-eng"
        let upper = key.uppercased()
        if ffmpegNoise.contains(upper) || upper.hasPrefix("_STATISTICS") { return nil }
        return upper
    }

    /// TagLib's PropertyMap keys, with the spellings TagLib passes through unmapped made canonical: ID3v2
    /// `TXXX:TCMP` (iTunes' compilation flag as many taggers write it) reaches the map as "TCMP".
    static func canonicalTagLib(_ properties: [(String, String)]) -> [(String, String)] {
        properties.map { key, value in (tagLibKeys[key] ?? key, value) }
    }

    static let tagLibKeys: [String: String] = ["TCMP": "COMPILATION", "ITUNESCOMPILATION": "COMPILATION"]

    /// Merges tag lists: the first source wins per key; later ones only fill keys it lacks.
    /// Multiple values of one key are joined with "; " (each value once).
    static func merge(_ sources: [[(String, String)]]) -> [String: String] {
        // Each key's value and the source that set it (a later source's values of a key an earlier one set
        // are dropped), in one dictionary updated in place: one hash per tag instead of three (a look-up and
        // two inserts into two dictionaries), and `mapValues` keeps the table without hashing again.
        var merged: [String: (value: String, source: Int)] = [:]
        merged.reserveCapacity(sources.first?.count ?? 0)
        let separator = MediaProperty.valueSeparator
        for (n, source) in sources.enumerated() {
            for (key, value) in source where !value.isEmpty {
                Self.add(value, from: n, to: &merged[key, default: (value: "", source: -1)], separator: separator)
            }
        }
        return merged.mapValues(\.value)
    }

    @inline(__always)
    private static func add(_ value: String, from source: Int, to entry: inout (value: String, source: Int), separator: String) {
        guard entry.source >= 0 else { entry = (value, source); return }         // a new key
        guard entry.source == source, !entry.value.split(separator: separator).contains(Substring(value)) else { return }
        entry.value += separator + value
    }

    /// Fills the tag-origin properties of `item` from its canonical tag map.
    static func apply(_ tags: [String: String], to item: inout MediaItem) {
        // Up to three keys, not a variadic list: that built an array per call, ~30 calls per item.
        func text(_ a: String, _ b: String? = nil, _ c: String? = nil) -> String? {
            if let v = tags[a]?.trimmed, !v.isEmpty { return v }
            if let b, let v = tags[b]?.trimmed, !v.isEmpty { return v }
            if let c, let v = tags[c]?.trimmed, !v.isEmpty { return v }
            return nil
        }
        item.title = text("TITLE")
        item.artist = text("ARTIST")
        item.albumTitle = text("ALBUM")
        item.albumArtist = text("ALBUMARTIST", "ALBUM ARTIST")
        item.genre = text("GENRE")
        item.composer = text("COMPOSER")
        item[.grouping] = text("GROUPING", "CONTENTGROUP").map(MediaValue.text)
        item[.comments] = text("COMMENT", "DESCRIPTION").map(MediaValue.text)
        item[.lyrics] = text("LYRICS", "UNSYNCEDLYRICS").map(MediaValue.text)

        let (track, trackTotal) = numberPair(text("TRACKNUMBER"))
        item[.albumTrackNumber] = track.map(MediaValue.integer)
        item[.albumTrackCount] = (trackTotal ?? leadingInteger(text("TRACKTOTAL", "TOTALTRACKS"))).map(MediaValue.integer)
        let (disc, discTotal) = numberPair(text("DISCNUMBER"))
        item[.discNumber] = disc.map(MediaValue.integer)
        item[.discCount] = (discTotal ?? leadingInteger(text("DISCTOTAL", "TOTALDISCS"))).map(MediaValue.integer)

        if let c = text("COMPILATION") {
            let flag = c.lowercased()
            item[.isCompilation] = .bool(flag == "1" || flag == "true" || flag == "yes")
        }
        if let date = releaseDate(text("DATE", "ORIGINALDATE", "YEAR")) {
            item[.releaseDate] = .text(date)
            item[.year] = Int64(date.prefix(4)).map(MediaValue.integer)
        }
        if let bpm = leadingNumber(text("BPM")), bpm > 0 { item[.beatsPerMinute] = .integer(Int64(bpm.rounded())) }

        item[.musicBrainzTrackID] = text("MUSICBRAINZ_TRACKID").map(MediaValue.text)
        item[.musicBrainzReleaseTrackID] = text("MUSICBRAINZ_RELEASETRACKID").map(MediaValue.text)
        item[.musicBrainzAlbumID] = text("MUSICBRAINZ_ALBUMID").map(MediaValue.text)
        item[.musicBrainzArtistID] = text("MUSICBRAINZ_ARTISTID").map(MediaValue.text)
        item[.musicBrainzAlbumArtistID] = text("MUSICBRAINZ_ALBUMARTISTID").map(MediaValue.text)
        item[.musicBrainzReleaseGroupID] = text("MUSICBRAINZ_RELEASEGROUPID").map(MediaValue.text)

        item[.replayGainTrackGain] = leadingNumber(text("REPLAYGAIN_TRACK_GAIN")).map(MediaValue.real)
        item[.replayGainTrackPeak] = leadingNumber(text("REPLAYGAIN_TRACK_PEAK")).map(MediaValue.real)
        item[.replayGainAlbumGain] = leadingNumber(text("REPLAYGAIN_ALBUM_GAIN")).map(MediaValue.real)
        item[.replayGainAlbumPeak] = leadingNumber(text("REPLAYGAIN_ALBUM_PEAK")).map(MediaValue.real)
        item[.tagRating] = TagRating.stars(tags).map(MediaValue.integer)
    }

    /// "3/12" → (3, 12); "03" → (3, nil); "" → (nil, nil).
    static func numberPair(_ s: String?) -> (Int64?, Int64?) {
        guard let s else { return (nil, nil) }
        let parts = s.split(separator: "/", maxSplits: 1).map { String($0) }
        return (leadingInteger(parts.first), parts.count > 1 ? leadingInteger(parts[1]) : nil)
    }

    static func leadingInteger(_ s: String?) -> Int64? {
        guard let digits = s?.trimmed.prefix(while: \.isASCIIDigit), !digits.isEmpty else { return nil }
        return Int64(digits)
    }

    /// "-6.50 dB" → -6.5; "0.988831" → 0.988831.
    static func leadingNumber(_ s: String?) -> Double? {
        guard let s = s?.trimmed else { return nil }
        let number = s.prefix { $0.isASCIIDigit || $0 == "." || $0 == "-" || $0 == "+" }
        return Double(number)
    }

    /// Normalises the date forms tags carry ("2003", "2003-05-17", "2003-05-17T12:00:00Z", "2003/05/17",
    /// "20030517") to ISO "YYYY", "YYYY-MM" or "YYYY-MM-DD". nil when there is no plausible year.
    static func releaseDate(_ s: String?) -> String? {
        guard let s = s.map(asciiDigits)?.trimmed else { return nil }
        let digits = s.prefix(10).map { $0 == "/" || $0 == "." ? "-" : $0 }
        let text = String(digits)
        let year = text.prefix(4)
        guard year.count == 4, year.allSatisfy(\.isASCIIDigit), let y = Int(year), y >= 1000 else { return wordDate(s) }
        var result = String(year)
        var rest = text.dropFirst(4)
        if rest.first == "-" { rest = rest.dropFirst() }
        let month = rest.prefix(2)
        guard month.count == 2, month.allSatisfy(\.isASCIIDigit), let m = Int(month), (1...12).contains(m) else { return result }
        result += "-" + month
        rest = rest.dropFirst(2)
        if rest.first == "-" { rest = rest.dropFirst() }
        let day = rest.prefix(2)
        guard day.count == 2, day.allSatisfy(\.isASCIIDigit), let d = Int(day), (1...31).contains(d) else { return result }
        return result + "-" + day
    }
}

extension TagMapping {
    /// Decimal digits of other scripts (Arabic-Indic "٢٠٠٤-٠٣-٠٥", Devanagari, full-width "２００４") as ASCII
    /// digits, as mutagen reads such a date (Python's `\d` and `int()` take every decimal digit; issue 49).
    static func asciiDigits(_ s: String) -> String {
        guard !s.utf8.allSatisfy({ $0 < 0x80 }) else { return s }
        var scalars = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if !u.isASCII, u.properties.numericType == .decimal, let v = u.properties.numericValue, let d = Unicode.Scalar(48 + Int(v)) {
                scalars.append(d)
            } else {
                scalars.append(u)
            }
        }
        return String(scalars)
    }

    static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                             "october", "november", "december"]

    /// A date written in words ("Oct 3, 1995", "3 October 1995", "May 2003", "Released in 1995", RFC 2822's
    /// "Tue, 05 Mar 2002 10:00:00 +0000"): the one
    /// four-digit year (1000–2999) in it, with the month named in full or shortened ("Oct", "Sept") and the day
    /// (1–31) beside it when they are there. nil without exactly one such year.
    static func wordDate(_ s: String) -> String? {
        // A time after the date (RFC 2822's "Tue, 05 Mar 2002 10:00:00 +0000"): its hour is not a day.
        var text = Substring(s)
        if let colon = s.firstIndex(of: ":") {
            text = s[..<colon]
            while let last = text.last, last.isNumber { text.removeLast() }
        }
        let words = text.split { !$0.isLetter && !$0.isNumber }
        let years = words.filter { $0.count == 4 && $0.allSatisfy(\.isASCIIDigit) && ("1000"..."2999").contains($0) }
        guard years.count == 1, let year = years.first else { return nil }
        guard let month = words.lazy.compactMap({ w in
            w.count >= 3 ? monthNames.firstIndex(where: { $0.hasPrefix(w.lowercased()) }).map { $0 + 1 } : nil
        }).first else { return String(year) }
        let days = words.filter { $0.count <= 2 && $0.allSatisfy(\.isASCIIDigit) }.compactMap { Int($0) }.filter { (1...31).contains($0) }
        let ym = String(year) + "-" + (month < 10 ? "0" : "") + String(month)
        guard days.count == 1, let day = days.first else { return ym }
        return ym + "-" + (day < 10 ? "0" : "") + String(day)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    var trimmed: String {
        // Most tag values have nothing to trim: no new string.
        // Decided on the bytes where it can be: an ASCII letter, digit or sign at both ends.
        guard let head = utf8.first, let tail = utf8.last else { return self }
        if head > 0x20, head < 0x7F, tail > 0x20, tail < 0x7F { return self }
        func blank(_ c: Character) -> Bool { c.isWhitespace || c == "\0" }
        guard let first = first, let last = last, blank(first) || blank(last) else { return self }
        var s = Substring(self)
        while let c = s.first, c.isWhitespace || c == "\0" { s.removeFirst() }
        while let c = s.last, c.isWhitespace || c == "\0" { s.removeLast() }
        return String(s)
    }
}
