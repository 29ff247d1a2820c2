import MediaModel

extension LyricsReader {
    /// A lyrics file over `sidecarCap` given to `mlib tag lyrics=@FILE`.
    public struct TextFileTooLarge: Error, CustomStringConvertible {
        public let path: MediaPath
        public let size: Int64
        public var description: String { "\(path.string): \(size) bytes, more than the \(LyricsReader.sidecarCap)-byte cap for lyrics" }
    }

    /// The text of a lyrics file given to `mlib tag lyrics=@FILE`, decoded as a sidecar is (`LyricsText`:
    /// a byte order mark, else UTF-8, else Windows-1252), so an old LRC file is written into the tag as the
    /// text it means. Regular files of at most `sidecarCap` bytes only (`ProbeError` for one that cannot be
    /// opened, `TextFileTooLarge`).
    public static func textFile(_ path: MediaPath) throws -> String {
        let file = try MediaFile(path)
        guard file.facts.size <= Int64(sidecarCap) else { throw TextFileTooLarge(path: path, size: file.facts.size) }
        return LyricsText.decode(file.bytes(at: 0, count: Int(file.facts.size))).text
    }
}
