extension AudioPayload {
    /// The byte ranges whose bytes alone decide what a decoder is handed, for the formats whose audio is one
    /// run of self-delimiting frames that the demuxer finds by what precedes it (MP3: from the first frame,
    /// a Xing/Info/LAME frame included, to the ID3v1/APEv2 tags at the tail; FLAC: STREAMINFO's 34 bytes,
    /// and every frame after the metadata blocks). nil for every other format, and for an MP3
    /// whose first frame does not follow its ID3v2 tags (junk before it: the demuxer's resync decides).
    ///
    /// What TagWriting's check (`WriteCheck`) uses to prove an in-place write left the audio alone without
    /// demuxing every packet: when no byte written in place lies in these ranges and the ranges read from
    /// the written file are the same, or a rewritten file's ranges hold the same bytes, the decoder is handed
    /// the same bytes.
    /// MP4 (chunk offsets in `moov`), WAV/AIFF (a `fmt`/`COMM` block alignment) and Ogg are not covered:
    /// bytes outside their payload decide how it is cut into packets.
    public static func codedRanges(of file: MediaFile) -> [Range<Int64>]? {
        let size = file.facts.size
        let start = id3v2End(file)
        let head = file.bytes(at: start, count: 4)
        if head.elementsEqual("fLaC".utf8) {
            // STREAMINFO is always the first block: a 4-byte header and 34 bytes. Its header's last-block
            // flag changes when a tag block is added; what it says is seen in where the frames start.
            let first = file.bytes(at: start + 4, count: 4)
            guard first.count == 4, first[0] & 0x7F == 0, let frames = flacFrames(file, from: start + 4) else { return nil }
            return [(start + 8)..<(start + 42), frames.start..<frames.end]
        }
        guard FormatSniffer.mpegAudioLayer(head) != nil else { return nil }
        let end = mpegEnd(file)
        return start < end && end <= size ? [start..<end] : nil
    }
}
