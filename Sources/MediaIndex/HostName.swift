#if canImport(Glibc)
import Glibc
#endif

/// This machine's host name as `gethostname(2)` gives it, or nil when the call fails.
package enum HostName {
    package static var current: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
