import CTagLib

/// An ID3v2 USLT or SYLT frame as TagLib read it (through CTagLib), before `LyricsReader` makes `Lyrics` of
/// it: SYLT times are still in the frame's own unit.
struct LyricsFrame: Sendable {
    enum TimeFormat: Int32, Sendable { case mpegFrames = 1, milliseconds = 2 }
    var synced: Bool
    var language: String
    var description: String
    /// USLT's text ("" for SYLT).
    var text: String
    var timeFormat: TimeFormat?
    /// SYLT's entries: (time in `timeFormat`, text).
    var entries: [(time: UInt32, text: String)]

    /// The frames of an open CTagLib handle, in tag order.
    static func all(_ handle: OpaquePointer) -> [LyricsFrame] {
        (0..<mlib_tl_lyrics_count(handle)).map { i in
            LyricsFrame(synced: mlib_tl_lyrics_synced(handle, i) != 0,
                        language: String(cString: mlib_tl_lyrics_language(handle, i)),
                        description: String(cString: mlib_tl_lyrics_description(handle, i)),
                        text: String(cString: mlib_tl_lyrics_text(handle, i)),
                        timeFormat: TimeFormat(rawValue: mlib_tl_lyrics_time_format(handle, i)),
                        entries: (0..<mlib_tl_lyrics_line_count(handle, i)).map { line in
                            (mlib_tl_lyrics_line_time(handle, i, line), String(cString: mlib_tl_lyrics_line_text(handle, i, line)))
                        })
        }
    }
}
