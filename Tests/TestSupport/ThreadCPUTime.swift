#if canImport(Glibc)
import Glibc
#endif

/// The CPU seconds the calling thread has used: what a "this must be quick" test measures, since the wall
/// clock on a shared 2-core machine also counts every other process (a 1 s bound on wall time failed at
/// load 20 while the work took a fraction of it). Valid across a synchronous piece of work only: an `await`
/// may resume on another thread.
public func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
