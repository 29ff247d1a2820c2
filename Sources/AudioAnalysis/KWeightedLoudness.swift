import Foundation

/// BS.1770-4 loudness of one stream, the way EBU Tech 3341/3342 gate it, computed so that each sample is
/// K-weighted once and squared-and-summed once: the audio is cut into 100 ms sub-blocks, each sub-block's
/// channel-weighted energy is kept, and the 400 ms gating blocks (75 % overlap, one every sub-block) and the
/// 3 s short-term blocks for the loudness range (one every second) are sums of those sub-block energies.
///
/// libebur128 1.2.6 gets the same figures by summing its ring buffer of filtered samples again for every
/// block a sample falls in (4 gating blocks and 3 short-term blocks): that re-summing was half of a
/// loudness-only analysis' CPU. The constants and rules below are libebur128's, so that the two agree (a test
/// compares them on the same audio): its K-weighting coefficients (one 4th-order filter, the product of the
/// shelf and the high-pass, in double), its 100 ms as `(rate + 5) / 10` frames, its default channel weights,
/// the first gating block after 400 ms and the first short-term block after 3 s, the absolute gate at
/// -70 LUFS applied when a block is stored, the relative gates (-10 LU integrated, -20 LU range) and the
/// range's 10th and 95th percentiles as indices rounded from the sorted short-term energies.
struct KWeightedLoudness {
    let channels: Int
    /// Frames in a 100 ms sub-block.
    let subBlockFrames: Int
    /// Each channel's weight in the sum (libebur128's default map: L, R, C 1; the LFE and channels past the
    /// sixth 0; the surrounds 1.41).
    let weights: [Double]
    private let b0, b1, b2, b3, b4, a1, a2, a3, a4: Double
    /// The filter's state, four values a channel (direct form II: v1 … v4).
    private var filterState: [Double]
    /// Each channel's sum of squared K-weighted samples in the current sub-block.
    private var channelSums: [Double]
    private var framesInSubBlock = 0
    /// The last 30 sub-blocks' weighted energies (sums, not means), a ring indexed by `subBlocks % 30`.
    private var recentSubBlocks = [Double](repeating: 0, count: 30)
    private var subBlocks = 0
    /// Mean energies of the 400 ms gating blocks at or above the absolute gate.
    private(set) var gatingBlocks: [Double] = []
    /// Mean energies of the 3 s short-term blocks at or above the absolute gate.
    private(set) var shortTermBlocks: [Double] = []
    /// The largest sample magnitude over all channels (full scale 1).
    private(set) var samplePeak: Float = 0

    /// The absolute gate, -70 LUFS, as an energy.
    static let absoluteGate = energy(ofLoudness: -70)

    static func energy(ofLoudness loudness: Double) -> Double { pow(10, (loudness + 0.691) / 10) }
    static func loudness(ofEnergy energy: Double) -> Double { 10 * log10(energy) - 0.691 }

    init(channels: Int, sampleRate: Int) {
        self.channels = channels
        subBlockFrames = (sampleRate + 5) / 10
        weights = (0..<channels).map { channel in
            switch channel {
            case 0, 1, 2: 1
            case 4, 5: 1.41
            default: 0
            }
        }
        // libebur128's ebur128_init_filter: the high-shelf (pb/pa) and the high-pass (rb/ra) multiplied out.
        var f0 = 1681.974450955533, q = 0.7071752369554196
        let gain = 3.999843853973347
        var k = tan(Double.pi * f0 / Double(sampleRate))
        let vh = pow(10.0, gain / 20.0)
        let vb = pow(vh, 0.4996667741545416)
        let shelfA0 = 1.0 + k / q + k * k
        let pb = [(vh + vb * k / q + k * k) / shelfA0, 2.0 * (k * k - vh) / shelfA0, (vh - vb * k / q + k * k) / shelfA0]
        let pa = [1.0, 2.0 * (k * k - 1.0) / shelfA0, (1.0 - k / q + k * k) / shelfA0]
        f0 = 38.13547087602444
        q = 0.5003270373238773
        k = tan(Double.pi * f0 / Double(sampleRate))
        let rb = [1.0, -2.0, 1.0]
        let ra = [1.0, 2.0 * (k * k - 1.0) / (1.0 + k / q + k * k), (1.0 - k / q + k * k) / (1.0 + k / q + k * k)]
        b0 = pb[0] * rb[0]
        b1 = pb[0] * rb[1] + pb[1] * rb[0]
        b2 = pb[0] * rb[2] + pb[1] * rb[1] + pb[2] * rb[0]
        b3 = pb[1] * rb[2] + pb[2] * rb[1]
        b4 = pb[2] * rb[2]
        a1 = pa[0] * ra[1] + pa[1] * ra[0]
        a2 = pa[0] * ra[2] + pa[1] * ra[1] + pa[2] * ra[0]
        a3 = pa[1] * ra[2] + pa[2] * ra[1]
        a4 = pa[2] * ra[2]
        filterState = [Double](repeating: 0, count: 4 * channels)
        channelSums = [Double](repeating: 0, count: channels)
    }

    /// Adds interleaved frames (`channels` samples each, full scale ±1).
    mutating func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress, channels > 0 else { return }
        let frames = samples.count / channels
        var frame = 0
        while frame < frames {
            let count = min(subBlockFrames - framesInSubBlock, frames - frame)
            filter(base + frame * channels, frames: count)
            framesInSubBlock += count
            frame += count
            if framesInSubBlock == subBlockFrames { closeSubBlock() }
        }
        // As libebur128 does after each call: a decaying state must not run on in subnormals (slow on x86).
        for index in filterState.indices where abs(filterState[index]) < Double.leastNormalMagnitude { filterState[index] = 0 }
    }

    /// K-weights `frames` frames from `start`, channel by channel (the state in locals, one pass), adding
    /// their squares to the sub-block's sums and their magnitudes to the peak.
    private mutating func filter(_ start: UnsafePointer<Float>, frames: Int) {
        let channels = self.channels
        let (b0, b1, b2, b3, b4, a1, a2, a3, a4) = (self.b0, self.b1, self.b2, self.b3, self.b4, self.a1, self.a2, self.a3, self.a4)
        if channels == 2 { return filterStereo(start, frames: frames) }
        var peak = samplePeak
        for channel in 0..<channels {
            var sample = start + channel
            guard weights[channel] != 0 else {
                for _ in 0..<frames { peak = max(peak, abs(sample.pointee)); sample += channels }
                continue
            }
            let stateIndex = 4 * channel
            var v1 = filterState[stateIndex], v2 = filterState[stateIndex + 1]
            var v3 = filterState[stateIndex + 2], v4 = filterState[stateIndex + 3]
            var sum = 0.0
            for _ in 0..<frames {
                let input = sample.pointee
                sample += channels
                peak = max(peak, abs(input))
                // The newest state last: the recursion's critical path is then one multiply and one subtract.
                let v0 = Double(input) - a4 * v4 - a3 * v3 - a2 * v2 - a1 * v1
                let output = b0 * v0 + b1 * v1 + b2 * v2 + b3 * v3 + b4 * v4
                sum += output * output
                v4 = v3; v3 = v2; v2 = v1; v1 = v0
            }
            filterState[stateIndex] = v1; filterState[stateIndex + 1] = v2
            filterState[stateIndex + 2] = v3; filterState[stateIndex + 3] = v4
            channelSums[channel] += sum
        }
        samplePeak = peak
    }

    /// `filter` for stereo, the common case: both channels in one pass, as the two lanes of SIMD2<Double>
    /// (one packed multiply-add chain for both recursions instead of two strided scalar passes).
    private mutating func filterStereo(_ start: UnsafePointer<Float>, frames: Int) {
        let (b0, b1, b2, b3, b4, a1, a2, a3, a4) = (self.b0, self.b1, self.b2, self.b3, self.b4, self.a1, self.a2, self.a3, self.a4)
        var v1 = SIMD2(filterState[0], filterState[4]), v2 = SIMD2(filterState[1], filterState[5])
        var v3 = SIMD2(filterState[2], filterState[6]), v4 = SIMD2(filterState[3], filterState[7])
        var sum = SIMD2<Double>.zero
        var peak = samplePeak
        var sample = start
        for _ in 0..<frames {
            let left = sample[0], right = sample[1]
            sample += 2
            peak = max(peak, max(abs(left), abs(right)))
            let v0 = SIMD2(Double(left), Double(right)) - a4 * v4 - a3 * v3 - a2 * v2 - a1 * v1
            let output = b0 * v0 + b1 * v1 + b2 * v2 + b3 * v3 + b4 * v4
            sum += output * output
            v4 = v3; v3 = v2; v2 = v1; v1 = v0
        }
        filterState[0] = v1[0]; filterState[1] = v2[0]; filterState[2] = v3[0]; filterState[3] = v4[0]
        filterState[4] = v1[1]; filterState[5] = v2[1]; filterState[6] = v3[1]; filterState[7] = v4[1]
        channelSums[0] += sum[0]
        channelSums[1] += sum[1]
        samplePeak = peak
    }

    /// Ends a 100 ms sub-block: keeps its weighted energy and stores the gating block (and, every second
    /// from 3 s on, the short-term block) that it completes.
    private mutating func closeSubBlock() {
        var energy = 0.0
        for channel in 0..<channels {
            energy += channelSums[channel] * weights[channel]
            channelSums[channel] = 0
        }
        recentSubBlocks[subBlocks % 30] = energy
        subBlocks += 1
        framesInSubBlock = 0
        if subBlocks >= 4 {
            let block = lastSubBlocks(4) / Double(4 * subBlockFrames)
            if block >= Self.absoluteGate { gatingBlocks.append(block) }
        }
        if subBlocks >= 30, (subBlocks - 30) % 10 == 0 {
            let block = lastSubBlocks(30) / Double(30 * subBlockFrames)
            if block >= Self.absoluteGate { shortTermBlocks.append(block) }
        }
    }

    private func lastSubBlocks(_ count: Int) -> Double {
        var sum = 0.0
        for back in 1...count { sum += recentSubBlocks[(subBlocks - back) % 30] }
        return sum
    }

    /// Gated loudness of gating blocks (one track's or an album's together), LUFS; -inf when none passes.
    static func integratedLoudness(ofBlocks blocks: [[Double]]) -> Double {
        let count = blocks.reduce(0) { $0 + $1.count }
        guard count > 0 else { return -.infinity }
        let relativeGate = blocks.reduce(0.0) { $0 + $1.reduce(0, +) } / Double(count) * 0.1   // -10 LU
        var gated = 0.0, gatedCount = 0
        for track in blocks { for block in track where block >= relativeGate { gated += block; gatedCount += 1 } }
        guard gatedCount > 0 else { return -.infinity }
        return loudness(ofEnergy: gated / Double(gatedCount))
    }

    var integratedLoudness: Double { Self.integratedLoudness(ofBlocks: [gatingBlocks]) }

    /// Loudness range (EBU Tech 3342), LU: the short-term blocks above -20 LU under their mean, from the 10th
    /// to the 95th percentile.
    var loudnessRange: Double {
        guard !shortTermBlocks.isEmpty else { return 0 }
        let sorted = shortTermBlocks.sorted()
        let relativeGate = sorted.reduce(0, +) / Double(sorted.count) * 0.01   // -20 LU
        let gated = sorted.drop { $0 < relativeGate }
        guard !gated.isEmpty else { return 0 }
        let last = Double(gated.count - 1)
        let high = gated[gated.startIndex + Int(last * 0.95 + 0.5)], low = gated[gated.startIndex + Int(last * 0.1 + 0.5)]
        return Self.loudness(ofEnergy: high) - Self.loudness(ofEnergy: low)
    }
}
