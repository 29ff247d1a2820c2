extension MediaProbe {
    /// The version of what the probe reads, stored with every item and failure a scan records. Bump it when
    /// the reader learns facts an earlier mlib stored wrong or not at all: the next scan then reads again every
    /// file an older reader read, although the file did not change, as an update in place (the item keeps its
    /// id, plays, rating and playlist entries), and retries the files an older reader refused.
    ///
    /// - 0 (stored as NULL): mlib before versions were recorded.
    /// - 1: file type, partial reads and their reasons, chapter counts, native lengths and bit rates (MP3
    ///   without LAME delay/padding, Opus without pre-skip), ID3v1 fallback, Standard MIDI, ADIF, OptimFROG,
    ///   Musepack SV4–SV6, ratings in tags (`tagRating`), multi-valued tags as lists.
    /// - 2: one bad ID3v2 frame no longer loses the frames after it; FLAC metadata blocks declared too short
    ///   read by their structure; FFmpeg's tags where TagLib reads nothing of a tag it found; VBR MP3 without
    ///   a Xing/VBRI header measured by counting frames; junk before the first MPEG frame skipped (not
    ///   damaged); ADTS AAC measured by counting frames; DSD (DSF, DSDIFF) from its headers (the DSD rate,
    ///   the length of the audio present, DSDIFF's ID3 chunk); ASF that FFmpeg refuses read by TagLib; dates
    ///   written in words ("Oct 3, 1995"); Opus in Matroska/WebM at 48 kHz. The scanner's fingerprint and
    ///   end hashes changed with it (each end hashed once, `LaneHash`): the first scan of version 2 stores
    ///   them anew.
    /// - 3: an Ogg file's bit rate is its audio pages' (the header pages, tags and cover art left out: a short
    ///   or heavily tagged Opus file read several times its rate); Ogg Speex's is its header's.
    /// - 4: one truncation rule for every format: the duration is the audio present (FLAC to its last frame,
    ///   MP4/ASF/video at their streams' bit rate), the header's length kept as `declaredDuration`, the file
    ///   flagged (a cut WAV and a cut Ogg file read through FFmpeg too). Also ASF's WM/SharedUserRating as
    ///   `tagRating` (read since `mlib tag --write-ratings`, which writes it, without a version of its own).
    /// - 5: a file whose codec this FFmpeg cannot decode (AC-4, MPEG-H 3D audio, 32-bit FLAC in FFmpeg 5.1)
    ///   is an item with `isDecodable` false and the reason (refused before as "not a media file"); with it
    ///   issue 49's second round of reads (junk before MP3 frames, cp1252 RIFF INFO, ID3v2.3 extended headers,
    ///   3GPP asset boxes, cut MP3 and WMA lengths), Theora's frame rate (and a Theora+Vorbis Ogg no longer
    ///   partial), dates in other scripts' digits ("٢٠٠٤").
    /// - 6: lyrics (issue 41): every set in the tags and the sidecars beside the file, into the `lyrics` table
    ///   and `hasLyrics`/`hasSyncedLyrics`/`lyricsLanguage` (an older reader stored none).
    ///   With it issue 49's third round: a VBR ASF that holds every packet it declares is whole, Musepack
    ///   SV8's length is its header's, an MP4 or Matroska file of text alone reads as not decodable, and an
    ///   encrypted (CENC) MP4 track as not decodable ("encrypted (cenc)"). With it issue 46's two: an MP3
    ///   whose ID3v2 tag is padding alone no longer shows FFmpeg's stream tags (ENCODER "Lavf"), and an MP3
    ///   with junk before its frames is read whatever its tag's padding (FFmpeg's re-reads no longer spend
    ///   the read budget).
    /// - 7: a FLAC's last frame header must agree with STREAMINFO (blocking strategy, rate, channels, sample
    ///   size, block size) as well as its CRC-8: a false sync code inside a whole file's last frame made it
    ///   partial, its duration cut to a few samples.
    public static let readerVersion = 7
}
