/// Chapters whose container gives only their starts (Nero `chpl`, Vorbis CHAPTERxxx comments) end where
/// the next one starts and the last one at the end of the file, as ffprobe lists them. FFmpeg computes
/// those ends in `avformat_find_stream_info`, which the probe skips (~10× the cost of the open): it leaves
/// them AV_NOPTS_VALUE, which read as −922337203685 s (issue 41).
enum ChapterEnds {
    /// `chapters` sorted by start, each end that is unknown (`nan`) filled; an end before its start is the start.
    static func filled(_ chapters: [ChapterInfo], duration: Double?) -> [ChapterInfo] {
        var out = chapters.sorted { $0.start < $1.start }
        for i in out.indices where out[i].end.isNaN {
            let next = i + 1 < out.count ? out[i + 1].start : duration ?? out[i].start
            out[i].end = max(next, out[i].start)
        }
        return out
    }
}
