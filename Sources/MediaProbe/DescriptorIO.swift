#if canImport(Glibc)
import Glibc
#endif
import CFFmpeg

/// An FFmpeg I/O context that reads a `MediaFile`'s open descriptor with pread(2): FFmpeg never opens the
/// path itself, so it reads the very file the probe checked (a regular file, opened O_NONBLOCK), and a FIFO
/// or device swapped in under the same name meanwhile cannot make it wait for ever. Lives as long as the
/// format context that reads through it; `close` frees it (FFmpeg does not free a caller's I/O context).
final class DescriptorIO {
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    private let state: UnsafeMutablePointer<State>

    struct State {
        var descriptor: Int32
        var size: Int64
        /// The most of the file FFmpeg may read: past it a read fails with AVERROR_EXIT (FFmpeg consults the
        /// interrupt callback only for its own protocols, not for a caller's I/O context).
        var budget: Int64
        var position: Int64 = 0
        /// The file's bytes read so far, each once (`read`), which the budget is about: FFmpeg's parsers
        /// reading on through data they cannot frame. Bytes read again do not count: FFmpeg's mp3 demuxer
        /// looks for the first frame after junk by seeking back to the tag's end after each byte it tries,
        /// and every seek past its buffer reads our 64 KiB again; where the tag ended decided how often, and
        /// an MP3 with 100 kB of junk whose tag a write grew by 1 KiB read 68 MB of its first 128 kB (issue
        /// 46: "FFmpeg recognises no format in it", where ffprobe reads the file).
        var bytesRead: Int64 = 0
        /// Every byte handed to FFmpeg, read again or not; bounded too (`copyLimit` budgets), so a demuxer
        /// seeking back and forth for ever still stops.
        var bytesCopied: Int64 = 0
        /// The ranges of the file read so far, sorted and apart.
        var read: [Range<Int64>] = []

        static let copyLimit: Int64 = 4

        var spent: Bool { bytesRead > budget || bytesCopied > Self.copyLimit * budget }

        /// Records a read of `range`; adds its bytes not read before to `bytesRead`.
        mutating func record(_ range: Range<Int64>) {
            bytesCopied += Int64(range.count)
            var merged = range
            var fresh = Int64(range.count)
            var kept: [Range<Int64>] = []
            kept.reserveCapacity(read.count + 1)
            for r in read {
                if r.upperBound < merged.lowerBound || r.lowerBound > merged.upperBound {
                    kept.append(r)
                } else {
                    fresh -= max(0, min(r.upperBound, range.upperBound) - max(r.lowerBound, range.lowerBound))
                    merged = min(r.lowerBound, merged.lowerBound)..<max(r.upperBound, merged.upperBound)
                }
            }
            kept.append(merged)
            kept.sort { $0.lowerBound < $1.lowerBound }
            read = kept
            bytesRead += fresh
        }
    }

    static let bufferSize = 64 * 1024

    init?(_ file: MediaFile, budget: Int64) {
        state = .allocate(capacity: 1)
        state.initialize(to: State(descriptor: file.descriptor, size: file.facts.size, budget: budget))
        guard let buffer = av_malloc(Self.bufferSize)?.assumingMemoryBound(to: UInt8.self) else {
            state.deallocate()
            return nil
        }
        context = avio_alloc_context(buffer, Int32(Self.bufferSize), 0, UnsafeMutableRawPointer(state), { opaque, buffer, count in
            guard let state = opaque?.assumingMemoryBound(to: State.self), let buffer, count > 0 else { return mlib_averror_eof() }
            if state.pointee.spent { return mlib_averror_exit() }
            // At or past the size stat gave: the end, without a pread to find it (FFmpeg asks at the end
            // of every probe).
            if state.pointee.position >= state.pointee.size { return mlib_averror_eof() }
            let n = pread(state.pointee.descriptor, buffer, Int(count), off_t(state.pointee.position))
            if n < 0 { return mlib_averror(errno) }
            if n == 0 { return mlib_averror_eof() }
            state.pointee.record(state.pointee.position..<state.pointee.position + Int64(n))
            state.pointee.position += Int64(n)
            return Int32(n)
        }, nil, { opaque, offset, whence in
            guard let state = opaque?.assumingMemoryBound(to: State.self) else { return -1 }
            if whence & mlib_avseek_size() != 0 { return state.pointee.size }
            switch whence & ~Int32(AVSEEK_FORCE) {
            case SEEK_SET: state.pointee.position = offset
            case SEEK_CUR: state.pointee.position += offset
            case SEEK_END: state.pointee.position = state.pointee.size + offset
            default: return -1
            }
            return state.pointee.position
        })
        if context == nil {
            var unused: UnsafeMutablePointer<UInt8>? = buffer
            av_freep(&unused)
            state.deallocate()
            return nil
        }
    }

    /// Frees the context and its buffer (FFmpeg may have replaced the buffer: free the one it holds).
    func close() {
        if context != nil {
            withUnsafeMutablePointer(to: &context!.pointee.buffer) { av_freep($0) }
            avio_context_free(&context)
        }
        state.deallocate()
    }
}
