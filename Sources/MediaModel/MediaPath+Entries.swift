#if canImport(Glibc)
import Glibc
#endif

extension MediaPath {
    /// The names in this directory as bytes (a name need not be UTF-8), without "." and ".."; nil when it
    /// cannot be read, or holds more than `limit` entries (a caller that lists only to skip a few opens
    /// must not list a folder of a million files at every request). One listing instead of a stat or open
    /// per name a caller might look for.
    public func entryNames(limit: Int = .max) -> [[UInt8]]? {
        guard let dir = withCString({ opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [UInt8(ascii: ".")] && name != [UInt8(ascii: "."), UInt8(ascii: ".")] { names.append(name) }
            if names.count > limit { return nil }
        }
        return names
    }
}
