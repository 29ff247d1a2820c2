/// Why a file could not be analysed: one line, without the path (the run's failure names the file).
public enum AnalysisError: Error, Sendable, CustomStringConvertible {
    /// The file could not be decoded (the decoder's own message).
    case decode(String)
    /// A library refused the audio's format.
    case unsupported(String)
    /// Chromaprint could not be loaded or failed.
    case fingerprint(String)

    public var description: String {
        switch self {
        case let .decode(message), let .unsupported(message), let .fingerprint(message): message
        }
    }
}
