import Foundation

/// A suite whose tests run mlib's tag writing in a temporary directory of its own (`dir`): the tag journal,
/// XDG_DATA_HOME and HOME all inside it, so that no test writes into the runner's home and suites running
/// side by side share no journal (one suite's recovery would complete another's interrupted write).
/// `FaultTests` and `InterruptedWriteTests` shared these lines, each its own copy.
public protocol TagWritingSandbox {
    var dir: URL { get }
}

extension TagWritingSandbox {
    /// The tag journal (`MLIB_TAG_JOURNAL`) of this suite's writes.
    public var journal: String { dir.appendingPathComponent("journal").path }

    /// What every child mlib gets: the journal, and a HOME, XDG_DATA_HOME and TMPDIR in `dir`. TMPDIR: the
    /// write check's links (`mlib-check-*`, removed after each read) outlive a child killed mid-check
    /// (FaultTests), and in the shared /tmp they failed other suites' checks that none is left.
    public var environment: [String: String] {
        ["MLIB_TAG_JOURNAL": journal, "XDG_DATA_HOME": dir.appendingPathComponent("data").path, "HOME": dir.path, "TMPDIR": dir.path]
    }

    /// Runs the built mlib in the sandbox's environment.
    public func mlib(_ args: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run(ChildProcess.mlib.path, args, environment: environment)
    }

    /// A file's bytes, to tell an old file from a new one.
    public func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
}
