#if canImport(Glibc)
import Glibc
#endif

/// A few of the process's environment variables, read with getenv. `ProcessInfo.processInfo.environment`
/// builds a dictionary of every variable on each call; every mlib command asked it four to six times
/// before doing its work (the library's and the tag journal's locations, the user): 2.5% of `mlib lyrics`'
/// samples (issue 41: < 20 ms whole process). The functions that take an environment still take a
/// dictionary (tests pass their own); this is what they get by default.
public enum ProcessEnvironment {
    /// The variables named that are set, by name.
    public static func values(_ names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }
}
