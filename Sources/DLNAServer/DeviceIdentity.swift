import Foundation

/// The device's UUID: made once and kept in a file beside the library, so that a TV that remembered the
/// server (its bookmarks, its resume points) finds it again after a restart.
enum DeviceIdentity {
    static func uuid(file: String?) -> String {
        guard let file else { return UUID().uuidString.lowercased() }
        if let text = try? String(contentsOfFile: file, encoding: .utf8),
           let uuid = UUID(uuidString: text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            return uuid.uuidString.lowercased()
        }
        let uuid = UUID().uuidString.lowercased()
        // Not fatal when the folder is read-only: the server still runs, under a new UUID each start.
        try? (uuid + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return uuid
    }
}
