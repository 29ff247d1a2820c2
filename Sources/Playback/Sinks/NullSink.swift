import Foundation

/// Discards audio. Real-time mode sleeps so that writes take as long as playing them would, which
/// makes it behave like a device (for the status line, tests of pausing, or a headless machine);
/// otherwise it returns at once (decoding benchmarks).
public final class NullSink: AudioSink, @unchecked Sendable {
    public private(set) var format: AudioFormat
    public let realTime: Bool
    /// Frames written so far.
    public private(set) var frameCount = 0
    private var startedAt: Date?
    private var pacedFrames = 0

    public init(format: AudioFormat = .cd, realTime: Bool) {
        self.format = format
        self.realTime = realTime
    }

    public func write(_ samples: [Int32]) throws {
        let frames = samples.count / format.channels
        frameCount += frames
        guard realTime else { return }
        let now = Date()
        // After a pause (nothing written for a while) start a new timeline instead of catching up.
        if let start = startedAt, now.timeIntervalSince(start) <= format.seconds(frames: pacedFrames) + 0.2 {
            pacedFrames += frames
        } else {
            startedAt = now
            pacedFrames = frames
        }
        let due = startedAt!.addingTimeInterval(format.seconds(frames: pacedFrames) - 0.05)  // keep 50 ms ahead
        let wait = due.timeIntervalSince(Date())
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }

    public func discardBuffered() { startedAt = nil }

    /// Any format: the null sink stands in for a device that takes each file's own.
    public func adopt(_ format: AudioFormat) throws {
        if format != self.format {
            if realTime, let start = startedAt {   // let the old format's audio "play out" first
                let wait = start.addingTimeInterval(self.format.seconds(frames: pacedFrames)).timeIntervalSinceNow
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
            self.format = format
            startedAt = nil
        }
    }
    public func close() throws {}
}
