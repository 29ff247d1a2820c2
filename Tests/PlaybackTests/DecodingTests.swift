import Foundation
import Synchronization
import MediaModel
import Testing
@testable import Playback

/// Forwards to a WAV file and runs `action` once, from the engine's thread, after the write that takes
/// the output past `frames` frames (that is how a test acts "half-way" without timing).
final class TriggerSink: AudioSink, @unchecked Sendable {
    let wav: WAVFileSink
    var format: AudioFormat { wav.format }
    private let lock = NSLock()
    private var triggers: [(frames: Int, action: @Sendable (Int) -> Void)] = []

    init(path: String) throws { wav = try WAVFileSink(path: path) }

    func at(frames: Int, _ action: @escaping @Sendable (_ framesWritten: Int) -> Void) {
        lock.withLock { triggers.append((frames, action)) }
    }

    func write(_ samples: [Int32]) throws {
        try wav.write(samples)
        let written = wav.frameCount
        let due = lock.withLock { () -> [@Sendable (Int) -> Void] in
            let fire = triggers.filter { written >= $0.frames }.map(\.action)
            triggers.removeAll { written >= $0.frames }
            return fire
        }
        due.forEach { $0(written) }
    }

    func close() throws { try wav.close() }
}

/// Collects events from a player's callback API.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [PlayerEvent] = []
    var events: [PlayerEvent] { lock.withLock { stored } }
    func observe(_ player: MusicPlayer) { player.addObserver { e in self.lock.withLock { self.stored.append(e) } } }
}

extension MusicPlayer {
    /// Plays the queue through and waits for the end (bounded), then closes the sink.
    func playToEnd() async throws {
        play()
        let ended = await eventually { self.playbackState == .stopped && self.nowPlayingItem == nil }
        try close()
        #expect(ended, "playback did not end")
    }
}

@Suite("Decoding into the WAV sink", .serialized)
struct DecodingTests {
    @Test func aThreeItemQueueIsGaplessAndExact() async throws {
        let fixtures = try AudioFixtures()
        let items = [
            try fixtures.tone("one.mp3", seconds: 1.5),
            try fixtures.tone("two.flac", seconds: 1.25, sampleRate: 48_000, channels: 1, frequency: 550),
            try fixtures.tone("three.wav", seconds: 0.75, sampleRate: 22_050, frequency: 660),
        ]
        let expected = try items.map { try fixtures.referenceFrames($0) }
        let out = fixtures.path("out.wav")
        let player = MusicPlayer(sink: try WAVFileSink(path: out), seed: 1)
        player.setQueue(with: items)
        try await player.playToEnd()

        let wav = try WAVFile(path: out)
        #expect(wav.sampleRate == 44_100 && wav.channels == 2)
        #expect(wav.riffSize == 36 + wav.samples.count * 2)
        #expect(wav.frameCount == expected.reduce(0, +), "per item (ffmpeg): \(expected)")
        // No gap: a tone never holds zero, so no run of silent frames anywhere, boundaries included.
        var run = 0, longest = 0
        for f in 0..<wav.frameCount {
            run = (wav.samples[2 * f] == 0 && wav.samples[2 * f + 1] == 0) ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(longest <= 2, "silent run of \(longest) frames")
    }

    @Test func skippingHalfWayShortensTheOutput() async throws {
        let fixtures = try AudioFixtures()
        let items = [try fixtures.tone("a.flac", seconds: 2), try fixtures.tone("b.flac", seconds: 2, frequency: 880)]
        let sink = try TriggerSink(path: fixtures.path("out.wav"))
        let player = MusicPlayer(sink: sink, seed: 1)
        let log = EventLog()
        log.observe(player)
        sink.at(frames: 44_100) { _ in player.skipToNextItem() }
        player.setQueue(with: items)
        try await player.playToEnd()

        let wav = try WAVFile(path: fixtures.path("out.wav"))
        let full = 2 * 88_200
        // The first item stops within one decoded frame (FLAC: 4608 samples) after the 1 s mark.
        #expect(wav.frameCount >= 44_100 + 88_200 && wav.frameCount <= 44_100 + 4_608 + 88_200, "\(wav.frameCount) of \(full)")
        let ends = log.events.compactMap { e -> ItemEnd? in if case .itemDidEnd(let end) = e { end } else { nil } }
        #expect(ends.map(\.reason) == [.skipped, .finished])
        #expect(ends.first.map { abs($0.position - 1) < 0.15 } == true)
        #expect(ends.first.map { $0.heard < 1 } == true, "\(ends)")   // under half of 2 s and under 20 s: a skip, by the library's rule
        #expect(ends.first?.itemID == items[0].persistentID)
    }

    @Test func seekingBeforePlayStartsWithin50msOfTheTarget() async throws {
        let fixtures = try AudioFixtures()
        let ramp = try fixtures.clockRamp("ramp.flac", seconds: 10)
        let player = MusicPlayer(sink: try WAVFileSink(path: fixtures.path("out.wav")), seed: 1)
        player.setQueue(with: [ramp])
        player.prepareToPlay()
        player.currentPlaybackTime = 6.0
        try await player.playToEnd()

        let wav = try WAVFile(path: fixtures.path("out.wav"))
        let landed = wav.rampSeconds(at: 0)
        #expect(abs(landed - 6.0) < 0.05, "landed at \(landed) s")
        #expect(abs(wav.frameCount - 4 * 44_100) < 2_205, "\(wav.frameCount) frames after the seek")
    }

    @Test(arguments: [7.5, 0.25])
    func seekingDuringPlaybackLandsWithin50msOfTheTarget(target: Double) async throws {
        let fixtures = try AudioFixtures()
        let ramp = try fixtures.clockRamp("ramp.flac", seconds: 10)
        let sink = try TriggerSink(path: fixtures.path("out.wav"))
        let player = MusicPlayer(sink: sink, seed: 1)
        let seekedAt = Mutex(0)
        sink.at(frames: 3 * 44_100) { written in
            seekedAt.withLock { $0 = written }
            player.currentPlaybackTime = target
        }
        player.setQueue(with: [ramp])
        try await player.playToEnd()

        let wav = try WAVFile(path: fixtures.path("out.wav"))
        let at = seekedAt.withLock { $0 }
        #expect(at > 0 && at < wav.frameCount)
        guard at > 0 && at < wav.frameCount else { return }
        let before = wav.rampSeconds(at: 2 * (at - 1))
        let landed = wav.rampSeconds(at: 2 * at)
        #expect(abs(before - Double(at - 1) / 44_100) < 0.01)    // unseeked audio reads its own time
        #expect(abs(landed - target) < 0.05, "landed at \(landed) s")
    }

    @Test func aCorruptItemIsSkippedWithAnErrorAndPlaybackGoesOn() async throws {
        let fixtures = try AudioFixtures()
        let good1 = try fixtures.tone("good1.flac", seconds: 0.5)
        let bad = try fixtures.garbage("bad.mp3")
        let good2 = try fixtures.tone("good2.wav", seconds: 0.5)
        let player = MusicPlayer(sink: try WAVFileSink(path: fixtures.path("out.wav")), seed: 1)
        let log = EventLog()
        log.observe(player)
        player.setQueue(with: [good1, bad, good2])
        try await player.playToEnd()

        let wav = try WAVFile(path: fixtures.path("out.wav"))
        #expect(wav.frameCount == 2 * 22_050)
        let failures = log.events.compactMap { e -> MediaItem? in if case .itemDidFail(let item, _) = e { item } else { nil } }
        #expect(failures == [bad])
        let ends = log.events.compactMap { e -> ItemEndReason? in if case .itemDidEnd(let end) = e { end.reason } else { nil } }
        #expect(ends == [.finished, .failed, .finished])
    }

    @Test func aMissingFileIsSkippedToo() async throws {
        let fixtures = try AudioFixtures()
        let good = try fixtures.tone("good.flac", seconds: 0.5)
        var missing = MediaItem(path: MediaPath(fixtures.path("nope.flac")))
        missing.title = "nope"
        let player = MusicPlayer(sink: try WAVFileSink(path: fixtures.path("out.wav")), seed: 1)
        let log = EventLog()
        log.observe(player)
        player.setQueue(with: [missing, good])
        try await player.playToEnd()
        #expect(try WAVFile(path: fixtures.path("out.wav")).frameCount == 22_050)
        let message = log.events.compactMap { e -> String? in if case .itemDidFail(_, let m) = e { m } else { nil } }.first
        #expect(message?.contains("nope.flac") == true)
    }

    @Test func pausingAndResumingLosesNothing() async throws {
        let fixtures = try AudioFixtures()
        let tone = try fixtures.tone("t.flac", seconds: 2)
        let sink = try TriggerSink(path: fixtures.path("out.wav"))
        let player = MusicPlayer(sink: sink, seed: 1)
        sink.at(frames: 30_000) { _ in player.pause() }
        player.setQueue(with: [tone])
        player.play()
        #expect(await eventually { player.playbackState == .paused })
        let frozen = sink.wav.frameCount
        try await Task.sleep(for: .milliseconds(200))
        #expect(sink.wav.frameCount == frozen)
        #expect(player.currentPlaybackTime > 0.6 && player.currentPlaybackTime < 0.9)
        try await player.playToEnd()
        #expect(try WAVFile(path: fixtures.path("out.wav")).frameCount == 88_200)
    }

    @Test func volumeScalesTheSamples() async throws {
        let fixtures = try AudioFixtures()
        let tone = try fixtures.tone("t.wav", seconds: 0.5)
        func peak(volume: Float) async throws -> Int {
            let out = fixtures.path("v\(volume).wav")
            let player = MusicPlayer(sink: try WAVFileSink(path: out), seed: 1)
            player.volume = volume
            player.setQueue(with: [tone])
            try await player.playToEnd()
            return try WAVFile(path: out).samples.map { abs(Int($0)) }.max() ?? 0
        }
        let full = try await peak(volume: 1)
        let quarter = try await peak(volume: 0.25)
        #expect(full > 2_000)
        #expect(abs(Double(quarter) / Double(full) - 0.25) < 0.01)
    }

    @Test func notificationsArriveInOrderOnTheStream() async throws {
        let fixtures = try AudioFixtures()
        let a = try fixtures.tone("a.flac", seconds: 0.3)
        let b = try fixtures.tone("b.flac", seconds: 0.3)
        let player = MusicPlayer(sink: try WAVFileSink(path: fixtures.path("out.wav")), seed: 1)
        let stream = player.notifications()
        player.setQueue(with: [a, b])
        try await player.playToEnd()
        var kinds: [String] = []
        for await event in stream {
            switch event {
            case .queueDidChange: kinds.append("queue")
            case .playbackStateDidChange(let s): kinds.append(s.rawValue)
            case .nowPlayingItemDidChange(let item): kinds.append("now:" + (item?.title ?? "nil"))
            case .itemDidEnd(let end): kinds.append("end:" + (end.item.title ?? "") + ":" + end.reason.rawValue)
            default: kinds.append("other")
            }
        }
        #expect(kinds == ["queue", "now:a.flac", "playing", "end:a.flac:finished", "now:b.flac",
                          "end:b.flac:finished", "now:nil", "stopped"])
    }

    @Test func repeatOneReplaysTheItemGaplessly() async throws {
        let fixtures = try AudioFixtures()
        let tone = try fixtures.tone("t.flac", seconds: 0.5)
        let sink = try TriggerSink(path: fixtures.path("out.wav"))
        let player = MusicPlayer(sink: sink, seed: 1)
        player.repeatMode = .one
        sink.at(frames: 3 * 22_050) { _ in player.repeatMode = .none }   // after the third play has begun
        player.setQueue(with: [tone])
        try await player.playToEnd()
        #expect(try WAVFile(path: fixtures.path("out.wav")).frameCount == 3 * 22_050)
    }
}

@Suite("Sinks")
struct SinkTests {
    @Test func sinkSpecsParse() {
        #expect(SinkSpec("auto") == .auto)
        #expect(SinkSpec("null") == .null(realTime: true))
        #expect(SinkSpec("null:fast") == .null(realTime: false))
        #expect(SinkSpec("wav:/tmp/x.wav") == .wav(path: "/tmp/x.wav"))
        #expect(SinkSpec("pcm") == .pcm)
        #expect(SinkSpec("wav:") == nil)
        #expect(SinkSpec("alsa") == nil)
        #expect(SinkSpec("wav:/a b.wav")?.description == "wav:/a b.wav")
    }

    @Test func theWAVHeaderDescribesTheData() throws {
        let fixtures = try AudioFixtures()
        let sink = try WAVFileSink(path: fixtures.path("h.wav"), format: AudioFormat(sampleRate: 48_000, channels: 2))
        try sink.write([1, -1, 2, -2, 3, -3].map { $0 << 16 })
        try sink.close()
        try sink.close()   // idempotent
        let wav = try WAVFile(path: fixtures.path("h.wav"))
        #expect(wav.sampleRate == 48_000)
        #expect(wav.channels == 2)
        #expect(wav.riffSize == 36 + 12)
        #expect(wav.samples == [1, -1, 2, -2, 3, -3])
    }

    @Test func anUnwritableWAVPathIsAClearError() {
        #expect(throws: SinkError.self) { try WAVFileSink(path: "/nonexistent-dir/x.wav") }
    }

    @Test func noAudioServerIsAClearErrorNotAHang() throws {
        setenv("PULSE_SERVER", "unix:/nonexistent/mlib-test-socket", 1)
        defer { unsetenv("PULSE_SERVER") }
        let started = Date()
        do {
            _ = try SinkSpec.auto.open()
            Issue.record("opened a device through a server that does not exist")
        } catch let error as SinkError {
            #expect(error.message.hasPrefix("no audio device"))
            #expect(error.message.contains("--sink"))
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aRealTimeNullSinkTakesAsLongAsTheAudio() throws {
        let sink = NullSink(realTime: true)
        let started = Date()
        for _ in 0..<10 { try sink.write([Int32](repeating: 0, count: 2 * 4_410)) }   // 1 s
        let took = Date().timeIntervalSince(started)
        #expect(took > 0.85 && took < 2, "took \(took) s")
        #expect(sink.frameCount == 44_100)
    }
}
