#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// Whether directory trees hold at least some number of media files, by name alone (`MediaFileFilter`),
/// with readdir only: no stat, no exclude list, no symbolic link followed, and it stops at the number. A
/// first scan asks it before writing anything: whether the library will be large enough for its indexes
/// to be built once at the end (`ScanRun.deferIndexesFrom`). Counting 20,000 names costs a few
/// milliseconds; an estimate is all that is needed.
enum MediaFileEstimate {
    static func atLeast(_ count: Int, under roots: [MediaPath]) -> Bool {
        var found = 0
        var pending = roots.map(\.bytes)
        while let directory = pending.popLast() {
            guard let dir = (directory + [0]).withUnsafeBufferPointer({ opendir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) })
            else { continue }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let type = entry.pointee.d_type
                let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    Array(raw.prefix { $0 != 0 })
                }
                guard let first = name.first, first != UInt8(ascii: ".") else { continue }   // hidden, `.`, `..`
                if type == UInt8(DT_DIR) {
                    pending.append(directory + [UInt8(ascii: "/")] + name)
                } else if type == UInt8(DT_REG), MediaFileFilter.verdict(forName: name) == .media {
                    found += 1
                    if found >= count { return true }
                }
            }
        }
        return false
    }
}
