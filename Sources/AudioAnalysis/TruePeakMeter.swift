import Foundation

/// The true peak of interleaved audio as libebur128 1.2.6 measures it in `EBUR128_MODE_TRUE_PEAK` (and so as
/// loudgain and rsgain report it): the largest |sample| of its polyphase interpolator's output (4× below
/// 96 kHz, 2× below 192 kHz, none above), or the sample peak when that is larger. The coefficients are
/// libebur128's (`interp_create(49, factor)`: a Hann-windowed sinc, the near-zero ones dropped), so the
/// peaks are the same; the sums are in `Float` rather than `Double`, far below the 0.01 dB the tests allow.
///
/// Two things make it cheap (libebur128's oversampling was 76% of `analyze --true-peak`'s CPU, issue 50):
/// - The phase that is the input itself (the centre tap, coefficient 1) is not computed: the sample peak
///   covers it. The other phases are summed for 8 frames at once (`SIMD8`), the loads shared by the phases.
/// - No output is computed for 8 frames whose inputs (the frames and the history their taps reach) are all
///   within `runningPeak / largestGain`: no phase can give more than `largestGain` × the largest input it
///   sees, so those outputs cannot raise the peak. On the test fixtures' music 5–37% of the frames are
///   oversampled (a steady tone: all of them, its every chunk near its peak); the history is still carried (each block's last samples), so a computed chunk after a
///   skipped one sums exactly what libebur128 sums.
public struct TruePeakMeter: Sendable {
    public let channels: Int
    /// The interpolation factor: 4, 2, or 1 (at 192 kHz and above, where libebur128 measures no true peak).
    public let factor: Int
    /// The phases that are not the input itself (3 at 4×, 1 at 2×): `coefficients[tap * phaseCount + phase]`,
    /// the tap being the delay (0 = this frame's sample).
    private let coefficients: [Float]
    private let phaseCount: Int
    private let taps: Int
    /// Samples of history kept per channel: a multiple of 8, at least the longest delay.
    private let historyLength: Int
    /// The most any phase can give for inputs within ±1: the largest sum of |coefficients| over the phases
    /// (1.864 at 4×), with a margin for `Float` rounding.
    public let largestGain: Float
    /// Each channel's last `historyLength` samples, channel after channel.
    private var history: [Float]
    /// One channel's history and block, reused.
    private var buffer: [Float] = []
    /// The largest |sample| of each 8 samples of `buffer`.
    private var chunkPeaks: [Float] = []
    private var truePeak: Float = 0
    private var samplePeak: Float = 0
    /// Frames oversampled and frames skipped (per channel, summed), to show that skipping happens.
    public private(set) var oversampledFrames = 0
    public private(set) var skippedFrames = 0

    public init(channels: Int, sampleRate: Int) {
        self.channels = channels
        factor = sampleRate < 96_000 ? 4 : sampleRate < 192_000 ? 2 : 1
        // libebur128's interp_create(49, factor): the same sinc, window and threshold, in Double, then kept
        // as Float (the outputs it compares are Float too).
        let tapCount = 49, almostZero = 0.000001
        var phases = [[(delay: Int, coefficient: Double)]](repeating: [], count: factor)
        for j in 0..<tapCount {
            let m = Double(j) - Double(tapCount - 1) / 2
            var c = 1.0
            if abs(m) > almostZero { c = sin(m * .pi / Double(factor)) / (m * .pi / Double(factor)) }
            c *= 0.5 * (1 - cos(2 * .pi * Double(j) / Double(tapCount - 1)))
            if abs(c) > almostZero { phases[j % factor].append((j / factor, c)) }
        }
        // A phase that is one coefficient of 1 passes a delayed input through: the sample peak already has it.
        let kept = factor == 1 ? [] : phases.filter { !($0.count == 1 && $0[0].coefficient == 1) }
        phaseCount = kept.count
        taps = (kept.flatMap { $0.map(\.delay) }.max() ?? -1) + 1
        var coefficients = [Float](repeating: 0, count: taps * kept.count)
        for (p, phase) in kept.enumerated() {
            for (delay, c) in phase { coefficients[delay * kept.count + p] = Float(c) }
        }
        self.coefficients = coefficients
        historyLength = (taps + 7) / 8 * 8
        let gain = kept.map { $0.reduce(0.0) { $0 + abs($1.coefficient) } }.max() ?? 1
        largestGain = Float(gain * (1 + 1e-5))
        history = [Float](repeating: 0, count: channels * historyLength)
    }

    /// The true peak so far, linear (1 = full scale): libebur128's `ebur128_true_peak`, the largest over the channels.
    public var peak: Double { Double(max(truePeak, samplePeak)) }

    /// Adds interleaved frames (`channels` samples each).
    public mutating func add(_ samples: UnsafeBufferPointer<Float>) {
        let frames = samples.count / channels
        guard frames > 0, let input = samples.baseAddress else { return }
        samplePeak = max(samplePeak, Self.largestMagnitude(input, count: frames * channels))
        guard phaseCount > 0 else { return }
        let padded = (frames + 7) / 8 * 8
        let length = historyLength + padded
        if buffer.count < length {
            buffer = [Float](repeating: 0, count: length)
            chunkPeaks = [Float](repeating: 0, count: length / 8)
        }
        // Taken out of self for the loop (and put back), so that the pointers below are the only accesses.
        var buffer: [Float] = [], chunkPeaks: [Float] = [], history: [Float] = []
        swap(&buffer, &self.buffer); swap(&chunkPeaks, &self.chunkPeaks); swap(&history, &self.history)
        let threshold = max(truePeak, samplePeak)
        var running = threshold, oversampled = 0
        buffer.withUnsafeMutableBufferPointer { buffer in
            chunkPeaks.withUnsafeMutableBufferPointer { chunkPeaks in
                history.withUnsafeMutableBufferPointer { history in
                    coefficients.withUnsafeBufferPointer { coefficients in
                        for channel in 0..<channels {
                            oversampled += oversample(channel: channel, frames: frames, padded: padded, input: input,
                                                      buffer: buffer.baseAddress!, chunkPeaks: chunkPeaks.baseAddress!,
                                                      past: history.baseAddress! + channel * historyLength,
                                                      coefficients: coefficients.baseAddress!, running: &running)
                        }
                    }
                }
            }
        }
        swap(&buffer, &self.buffer); swap(&chunkPeaks, &self.chunkPeaks); swap(&history, &self.history)
        if running > threshold { truePeak = running }
        oversampledFrames += 8 * oversampled
        skippedFrames += channels * padded - 8 * oversampled
    }

    /// The largest |sample| of `count` samples. A plain loop of comparisons, which the compiler vectorizes
    /// (the standard library's `pointwiseMax` and `SIMD.max()` were not inlined: 30% of the true peak's time).
    static func largestMagnitude(_ samples: UnsafePointer<Float>, count: Int) -> Float {
        var peak: Float = 0
        for i in 0..<count {
            let x = magnitude(samples[i])
            peak = x > peak ? x : peak
        }
        return peak
    }

    @inline(__always) static func magnitude(_ x: Float) -> Float { Float(bitPattern: x.bitPattern & 0x7fff_ffff) }

    /// |v|, lane by lane, by clearing the sign bits.
    @inline(__always) static func magnitude(_ v: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7fff_ffff, to: SIMD8<Float>.self)
    }

    @inline(__always) static func larger(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: a .< b) }

    /// One channel of a block: its history and samples into `buffer`, the chunks that could raise `running`
    /// oversampled. Returns how many chunks of 8 frames it oversampled.
    private func oversample(channel: Int, frames: Int, padded: Int, input: UnsafePointer<Float>,
                            buffer: UnsafeMutablePointer<Float>, chunkPeaks: UnsafeMutablePointer<Float>,
                            past: UnsafeMutablePointer<Float>, coefficients c: UnsafePointer<Float>,
                            running: inout Float) -> Int {
        let h = historyLength, channels = channels, taps = taps, gain = largestGain
        buffer.update(from: past, count: h)
        for i in 0..<frames { buffer[h + i] = input[i * channels + channel] }
        // Zeros after the last frame: they raise no chunk's peak, and their outputs are masked below.
        for i in frames..<padded { buffer[h + i] = 0 }
        past.update(from: buffer + frames, count: h)
        for k in 0..<(h + padded) / 8 {
            var peak: Float = 0
            for i in 8 * k..<8 * k + 8 {
                let x = Self.magnitude(buffer[i])
                peak = x > peak ? x : peak
            }
            chunkPeaks[k] = peak
        }
        let window = h / 8
        let lanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        var oversampled = 0
        for k in 0..<padded / 8 {
            // Output frames 8k..<8k+8 reach back `taps - 1` samples: chunks k...k+window of buffer.
            var inputPeak = chunkPeaks[k]
            for j in k + 1..<k + window + 1 { inputPeak = chunkPeaks[j] > inputPeak ? chunkPeaks[j] : inputPeak }
            if inputPeak * gain <= running { continue }
            oversampled += 1
            let newest = buffer + h + 8 * k
            var peak: SIMD8<Float>
            if phaseCount == 3 {
                var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>()
                for t in 0..<taps {
                    let v = UnsafeRawPointer(newest - t).loadUnaligned(as: SIMD8<Float>.self)
                    a0 += v * c[3 * t]
                    a1 += v * c[3 * t + 1]
                    a2 += v * c[3 * t + 2]
                }
                peak = Self.larger(Self.larger(Self.magnitude(a0), Self.magnitude(a1)), Self.magnitude(a2))
            } else {
                // 2× (96 to 192 kHz): one phase.
                var a0 = SIMD8<Float>()
                for t in 0..<taps {
                    a0 += UnsafeRawPointer(newest - t).loadUnaligned(as: SIMD8<Float>.self) * c[t]
                }
                peak = Self.magnitude(a0)
            }
            // The padding's outputs are not frames of the stream (their later inputs are not known yet).
            let remaining = frames - 8 * k
            if remaining < 8 { peak.replace(with: 0, where: lanes .>= Int32(remaining)) }
            for i in 0..<8 { running = peak[i] > running ? peak[i] : running }
        }
        return oversampled
    }
}
