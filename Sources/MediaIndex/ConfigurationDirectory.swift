import Foundation
import Synchronization

/// Where mlib keeps what belongs to this user on this host rather than to a library file: a PostgreSQL
/// library's host id (`HostIdentity`) and its users' key file (`PasswordVault`). `$XDG_CONFIG_HOME/mlib`,
/// `~/.config/mlib` by default.
public enum ConfigurationDirectory {
    /// Variables that take the place of the process's own in `environment` (empty unless set): a program
    /// that embeds mlib and keeps its files elsewhere, or a test process, names `XDG_CONFIG_HOME` here
    /// instead of calling `setenv`, which is not safe once threads run. The tests set it, so that no test
    /// writes the runner's own `~/.config/mlib`.
    public static var environmentOverrides: [String: String] {
        get { overrides.withLock { $0 } }
        set { overrides.withLock { $0 = newValue } }
    }
    private static let overrides = Mutex<[String: String]>([:])

    /// The process's environment with `environmentOverrides` over it.
    public static var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(environmentOverrides) { $1 }
    }

    /// `$XDG_CONFIG_HOME/mlib` (an absolute `XDG_CONFIG_HOME` only, as the XDG rules say), else
    /// `$HOME/.config/mlib`.
    public static func path(environment: [String: String] = ConfigurationDirectory.environment) -> String {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.config")
        return config + "/mlib"
    }
}
