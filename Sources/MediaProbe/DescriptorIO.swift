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
        /// The most FFmpeg may read in all: past it a read fails with AVERROR_EXIT (FFmpeg consults the
        /// interrupt callback only for its own protocols, not for a caller's I/O context).
        var budget: Int64
        var position: Int64 = 0
        var bytesRead: Int64 = 0
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
            if state.pointee.bytesRead > state.pointee.budget { return mlib_averror_exit() }
            // At or past the size stat gave: the end, without a pread to find it (FFmpeg asks at the end
            // of every probe).
            if state.pointee.position >= state.pointee.size { return mlib_averror_eof() }
            let n = pread(state.pointee.descriptor, buffer, Int(count), off_t(state.pointee.position))
            if n < 0 { return mlib_averror(errno) }
            if n == 0 { return mlib_averror_eof() }
            state.pointee.position += Int64(n)
            state.pointee.bytesRead += Int64(n)
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
