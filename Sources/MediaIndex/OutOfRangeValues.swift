import Foundation
import MediaModel
import Synchronization

/// The log of stored values read back outside `StoredBounds` (and clamped): one line on standard error
/// for each of the first 20 in a process, then one saying that more were clamped, so that a library
/// full of them does not flood the log of a server that reads it at every refresh.
package enum OutOfRangeValues {
    private static let logged = Mutex(0)
    package static let limit = 20

    package static func log(item id: Int64, _ property: MediaProperty, _ stored: MediaValue, _ read: MediaValue?) {
        log("item \(id): stored \(property.rawValue) \(stored) is out of range; read as \(read.map { "\($0)" } ?? "none")")
    }

    package static func log(_ message: @autoclosure () -> String) {
        let count = logged.withLock { n -> Int in n += 1; return n }
        guard count <= limit + 1 else { return }
        let line = count <= limit ? "mlib: \(message())\n" : "mlib: more stored values out of range were clamped (not logged)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
