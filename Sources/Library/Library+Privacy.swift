import Foundation
import MediaIndex

extension Library {
    /// Why this library's file is not private, or nil: an SQLite library that its group or other users can
    /// read (one made before mlib created libraries with mode 0600 keeps the mode it had). It holds the
    /// users' accounts and everyone's listening history; servers say so when they start.
    public var exposure: String? {
        guard case .sqlite(let path) = locator else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
        return "the library \(path) can be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))): chmod 600 \(path)"
    }
}
