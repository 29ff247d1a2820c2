import MediaDecode

/// One transcoded stream in flight: its transcoder, used by one transcoding thread at a time (each chunk
/// is read after the previous one was sent), and its slot, given back when the stream ends or is dropped.
public final class TranscodeSession: @unchecked Sendable {
    public let transcoder: Transcoder
    private let slot: TranscodeSlots.Slot

    public init(_ transcoder: Transcoder, slot: TranscodeSlots.Slot) {
        self.transcoder = transcoder
        self.slot = slot
    }

    public func read() throws -> [UInt8]? { try transcoder.read() }

    /// The stream's length estimated from its bit rate and duration, for `estimateContentLength`: the
    /// encoded audio plus 3 % and 16 KiB for the container (Ogg pages, the Opus or ID3/Xing headers) and
    /// a VBR encoder's swings, so that the real stream is rarely longer; nil when the duration is unknown.
    public var estimatedLength: Int? {
        guard let duration = transcoder.duration, duration.isFinite, duration >= 0 else { return nil }
        return Int((Double(transcoder.bitRate) * duration / 8 * 1.03).rounded(.up)) + 16 * 1024
    }

    /// Gives the slot back (the stream is over, or its client gone).
    public func close() { slot.release() }
}
