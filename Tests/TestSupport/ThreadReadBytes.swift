import Foundation

/// `rchar` of /proc/thread-self/io: what the calling thread's read calls have returned (the page cache
/// included): how a test sees that some work read a file once, or only its tag. Valid across synchronous
/// work only, as `threadCPUSeconds`.
public func bytesReadByThisThread() throws -> Int {
    let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("rchar:") }),
          let count = Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) else {
        throw TestFailure("no rchar in /proc/thread-self/io")
    }
    return count
}
