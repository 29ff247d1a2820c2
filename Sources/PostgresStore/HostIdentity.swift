import Foundation
import MediaModel
import MediaIndex

/// Who this machine is in a shared PostgreSQL library: an id made once and kept on the host, and a name
/// that is only its label. Roots, items, failures and mounts belong to the id (`host` columns), so a host
/// renamed keeps its roots, and two machines that happen to share a name (two Raspberry Pis, containers
/// started with one `--hostname`) do not share rows.
///
/// - `id`: `$MLIB_HOST_ID` when set (acting as that host on purpose: a host whose file was lost, a test),
///   else read from `$XDG_CONFIG_HOME/mlib/host-id` (~/.config by default, beside the users' key file),
///   made there on first use (a random UUID).
/// - `name`: `$MLIB_HOST`, else the host name. It labels the host in messages and listings; a library
///   made by an mlib before host ids names its rows by it, and the host of that name adopts them.
/// - `machine`: `/etc/machine-id` (empty where there is none): an id file copied to another machine is
///   told from a host renamed on the same machine (`PostgresHosts.register`).
public struct HostIdentity: Sendable, Hashable {
    public var id: String
    public var name: String
    public var machine: String
    /// The id came from `MLIB_HOST_ID`: acting as that host is what the user asked for.
    public var idGiven: Bool
    /// The name came from `MLIB_HOST`, not the system: it may not be another host's name.
    public var nameGiven: Bool

    public init(id: String, name: String, machine: String = HostIdentity.machineID(), idGiven: Bool = true, nameGiven: Bool = true) {
        self.id = id
        self.name = name
        self.machine = machine
        self.idGiven = idGiven
        self.nameGiven = nameGiven
    }

    /// This host's identity from the environment, the id file made when there is none.
    public static func current(environment: [String: String] = ConfigurationDirectory.environment,
                               database: String) throws -> HostIdentity {
        func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let name = env("MLIB_HOST") ?? PostgresLocation.hostName()
        if let id = env("MLIB_HOST_ID") {
            return HostIdentity(id: id, name: name, idGiven: true, nameGiven: env("MLIB_HOST") != nil)
        }
        let file = idFile(environment: environment)
        let id: String
        do {
            id = try readOrMake(file)
        } catch {
            throw IndexError.cannotOpen(database: database, reason: """
                cannot keep this host's identity in \(file) (\(error.localizedDescription)); make that directory \
                writable, or set MLIB_HOST_ID to an id of this host's own
                """)
        }
        return HostIdentity(id: id, name: name, idGiven: false, nameGiven: env("MLIB_HOST") != nil)
    }

    /// `$XDG_CONFIG_HOME/mlib/host-id`, ~/.config by default.
    public static func idFile(environment: [String: String]) -> String {
        ConfigurationDirectory.path(environment: environment) + "/host-id"
    }

    /// The id in `file`, or a new one written there. Two processes making it at once agree: each writes a
    /// file of its own and links it into place; the one that loses reads the winner's.
    static func readOrMake(_ file: String) throws -> String {
        if let text = try? String(contentsOfFile: file, encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !id.isEmpty { return id }
        }
        // By the path's bytes: `deletingLastPathComponent` traps on a one-character path (issue 47).
        let directory = MediaPath(file).directory.string
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let id = UUID().uuidString.lowercased()
        let temporary = directory + "/.host-id.\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
        try Data((id + "\n").utf8).write(to: URL(fileURLWithPath: temporary))
        defer { unlink(temporary) }
        if link(temporary, file) == 0 { return id }
        guard errno == EEXIST, let text = try? String(contentsOfFile: file, encoding: .utf8),
              !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file])
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The system's machine id (`/etc/machine-id`, systemd's; else D-Bus's), empty where there is none.
    public static func machineID() -> String {
        for file in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            if let text = try? String(contentsOfFile: file, encoding: .utf8) {
                let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !id.isEmpty { return id }
            }
        }
        return ""
    }
}
