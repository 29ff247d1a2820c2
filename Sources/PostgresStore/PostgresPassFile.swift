import Foundation
import MediaIndex
import Synchronization

/// libpq's password file (`~/.pgpass`, or `PGPASSFILE`, or `passfile=` in the locator), read as libpq reads
/// it, so that a library locator needs no password in it or in the environment: lines of
/// `hostname:port:database:username:password`, `*` matching anything in the first four fields, `\:` and
/// `\\` escaping, `#` starting a comment. A file that others can read is ignored, as libpq ignores it.
struct PostgresPassFile {
    struct Entry: Equatable {
        var host, port, database, user, password: String
    }
    var entries: [Entry]

    /// The file's entries; nil when it is missing, unreadable or open to group or others (then with libpq's
    /// warning, once per file and process, through `warn`: standard error by default).
    init?(path: String, warn: (String) -> Void = PostgresPassFile.printWarning) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        guard info.st_mode & 0o077 == 0 else {
            if Self.warned.withLock({ $0.insert(path).inserted }) {
                warn("WARNING: password file \"\(path)\" has group or world access; permissions should be u=rw (0600) or less")
            }
            return nil
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        entries = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = Self.fields(line)
            guard fields.count == 5 else { return nil }
            return Entry(host: fields[0], port: fields[1], database: fields[2], user: fields[3], password: fields[4])
        }
    }

    /// The files warned about in this process (a locator is read more than once: to open it, to name it).
    private static let warned = Mutex<Set<String>>([])

    static func printWarning(_ line: String) {
        FileHandle.standardError.write(Data(("mlib: " + line + "\n").utf8))
    }

    /// The password of the first entry matching; `hosts` are the names the connection's host goes by
    /// (a socket directory, and `localhost` for libpq's default one).
    func password(hosts: [String], port: Int, database: String, user: String) -> String? {
        func matches(_ field: String, _ value: String) -> Bool { field == "*" || field == value }
        return entries.first { e in
            hosts.contains { matches(e.host, $0) } && matches(e.port, String(port)) && matches(e.database, database) && matches(e.user, user)
        }?.password
    }

    /// A line's fields split at unescaped colons (the last field, the password, keeps any further colon).
    private static func fields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
