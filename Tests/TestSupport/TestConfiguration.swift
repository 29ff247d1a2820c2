import Foundation

/// Where the test process and its children keep mlib's per-user configuration (`XDG_CONFIG_HOME`: the host
/// id of a PostgreSQL library, and what else mlib keeps there), instead of the runner's own `~/.config`.
/// The directory is made once per test process. Children started by `SpawnedProcess` get it unless the test
/// gives them a `HOME` or `XDG_CONFIG_HOME` of their own (the tests that play several hosts do); the
/// libraries a test opens in its own process use it through `HostIdentity.environmentOverrides`, which the
/// tests' PostgreSQL server sets, so a child's scan and the test's own reads are one host.
public enum TestConfiguration {
    public static let directory: String = {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-test-config-XXXXXX").path
        var buffer = Array(template.utf8CString)
        guard mkdtemp(&buffer) != nil else { return FileManager.default.temporaryDirectory.path + "/mlib-test-config" }
        let path = String(cString: buffer)
        atexit { try? FileManager.default.removeItem(atPath: TestConfiguration.directory) }
        return path
    }()

    /// `environment` with `XDG_CONFIG_HOME` set to `directory` when it names neither a home nor a
    /// configuration directory of its own.
    static func childEnvironment(_ inherited: [String: String], adding environment: [String: String]) -> [String: String] {
        var merged = inherited.merging(environment) { $1 }
        if environment["HOME"] == nil, environment["XDG_CONFIG_HOME"] == nil { merged["XDG_CONFIG_HOME"] = directory }
        return merged
    }
}
