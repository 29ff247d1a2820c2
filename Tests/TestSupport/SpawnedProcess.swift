import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, for every test that runs one (mlib, mpc, ffmpeg, pg_ctl…).
///
/// Why not Foundation's `Process`: on Linux it watches its children through a SIGCHLD dispatch source and a
/// run-loop source per process; with many suites starting children at once (`swift test` in parallel), a
/// run once crashed inside libdispatch. This type has no shared state: the pipes are `pipe2(O_CLOEXEC)`, so
/// a child started on another thread at the same moment inherits none of them (a child holding another's
/// pipe keeps its reader from ever seeing the end), and the child is reaped by `waitpid` on its own pid.
///
/// The names follow `Process` (`processIdentifier`, `isRunning`, `waitUntilExit`, `terminationStatus`,
/// `terminationReason`, `terminate`), so a test reads the same either way.
public final class SpawnedProcess: @unchecked Sendable {
    /// What one of the child's standard streams is connected to.
    public enum Stream: Sendable {
        /// /dev/null.
        case null
        /// A pipe; the test's end is `standardInput`/`standardOutput`/`standardError`.
        case pipe
        /// The test process's own stream.
        case inherit
        /// A file: standard input reads it; standard output and error make or empty it (for a child that leaves
        /// a daemon holding its output, `pg_ctl start`, where a pipe would never end).
        case file(String)
        /// The same as the child's standard output (standard error only: `2>&1`).
        case standardOutput
    }

    public enum TerminationReason: Sendable { case exit, uncaughtSignal }

    public struct SpawnFailure: Error, CustomStringConvertible {
        public var description: String
    }

    public let processIdentifier: pid_t
    /// The writing end of the child's standard input, when it is `.pipe`.
    public let standardInput: FileHandle?
    /// The reading ends of the child's standard output and error, when they are `.pipe`.
    public let standardOutput: FileHandle?
    public let standardError: FileHandle?

    private let lock = NSLock()
    private var waitStatus: Int32?

    /// Starts `program` (a path, or a name looked up on PATH) with `arguments`; `environment` entries are
    /// added to the test's own (`inheritEnvironment: false`: the child's whole environment). Signals the test
    /// ignores or blocks (SIGPIPE) are reset to their defaults in the child, as a shell would.
    public init(_ program: String, _ arguments: [String], environment: [String: String] = [:], inheritEnvironment: Bool = true,
                cwd: URL? = nil, stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32?] = [nil, nil, nil]
        var childEnds: [Int32] = []
        defer { childEnds.forEach { close($0) } }
        for (fd, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .inherit: break
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, fd == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .standardOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, fd)
            case .null:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard systemPipe2(&ends, O_CLOEXEC) == 0 else {
                    parentEnds.compactMap { $0 }.forEach { close($0) }
                    throw SpawnFailure(description: "pipe: \(String(cString: strerror(errno)))")
                }
                let (child, parent) = fd == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                posix_spawn_file_actions_adddup2(&actions, child, fd)   // dup2 clears O_CLOEXEC on the copy
                childEnds.append(child)
                parentEnds[Int(fd)] = parent
            }
        }
        if let cwd { _ = spawnActionsChdir(&actions, cwd.path) }
        // Nothing else of the test process goes to the child: a descriptor opened without close-on-exec on
        // another thread (a Foundation `Pipe`) would otherwise stay open in the child, and in whatever daemon
        // it leaves (postgres), for its whole life — the other test's read of that pipe would never end.
        _ = spawnActionsCloseFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let variables = (inheritEnvironment
            ? TestConfiguration.childEnvironment(ProcessInfo.processInfo.environment, adding: environment)
            : environment).map { "\($0.key)=\($0.value)" }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = program.contains("/")
            ? posix_spawn(&pid, program, &actions, &attributes, argv, envp)
            : posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else {
            parentEnds.compactMap { $0 }.forEach { close($0) }
            throw SpawnFailure(description: "\(program): \(String(cString: strerror(result)))")
        }
        processIdentifier = pid
        standardInput = parentEnds[0].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        standardOutput = parentEnds[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        standardError = parentEnds[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    deinit {
        // A child the test did not wait for (a failed #require between start and stop) is not left running.
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }

    /// True until the child has exited (it is reaped here, once).
    public var isRunning: Bool { reap(blocking: false) == nil }

    public func waitUntilExit() { _ = reap(blocking: true) }

    /// The exit code, or the signal's number when `terminationReason` is `.uncaughtSignal` (as `Process`).
    /// Waits for the child.
    public var terminationStatus: Int32 {
        let status = reap(blocking: true)!
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    public var terminationReason: TerminationReason {
        reap(blocking: true)! & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    /// SIGTERM.
    public func terminate() { signal(SIGTERM) }

    public func signal(_ number: Int32) {
        if isRunning { kill(processIdentifier, number) }
    }

    private func reap(blocking: Bool) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let waitStatus { return waitStatus }
        var status: Int32 = 0
        while true {
            let r = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG)
            if r == processIdentifier { waitStatus = status; return status }
            if r == 0 { return nil }
            if errno != EINTR { waitStatus = 0x7f00; return waitStatus }   // not ours to reap (cannot happen)
        }
    }
}

extension SpawnedProcess {
    /// Reads the child's standard output and error (both `.pipe`) to their ends at once, so that neither
    /// full pipe can block the child, then waits for it.
    public func readToEnd() -> (stdout: Data, stderr: Data) {
        let (out, err, _) = readToEnd(deadline: nil)
        return (out, err)
    }

    /// As `readToEnd()`, with a deadline for a command that must not hang: a child still running `seconds`
    /// after the call is killed (SIGKILL), and `timedOut` says so.
    public func readToEnd(killingAfter seconds: Double) -> (stdout: Data, stderr: Data, timedOut: Bool) {
        readToEnd(deadline: Date().addingTimeInterval(seconds))
    }

    private func readToEnd(deadline: Date?) -> (stdout: Data, stderr: Data, timedOut: Bool) {
        var out = Data(), err = Data()
        var timedOut = false
        func killIfLate() {
            guard let deadline, !timedOut, deadline.timeIntervalSinceNow <= 0 else { return }
            timedOut = true
            self.signal(SIGKILL)
        }
        var fds = [standardOutput, standardError].map { pollfd(fd: $0?.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while fds.contains(where: { $0.fd >= 0 }) {
            // Past the deadline (the child killed) the pipes end soon: wait for that without a limit.
            let wait = deadline.map { timedOut ? -1 : Int32(max(0, min($0.timeIntervalSinceNow, 86_400)) * 1000) } ?? -1
            let ready = poll(&fds, nfds_t(fds.count), wait)
            guard ready >= 0 || errno == EINTR else { break }
            if ready == 0 { killIfLate(); continue }
            for i in fds.indices where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = read(fds[i].fd, &buffer, buffer.count)
                if n > 0 {
                    if i == 0 { out.append(contentsOf: buffer[..<n]) } else { err.append(contentsOf: buffer[..<n]) }
                } else if n == 0 || errno != EINTR {
                    fds[i].fd = -1    // the end; the FileHandle closes the descriptor
                }
            }
        }
        // A child may close its output and go on: the deadline holds for its end too.
        if deadline != nil {
            while isRunning && !timedOut {
                killIfLate()
                if !timedOut { usleep(10_000) }
            }
        }
        waitUntilExit()
        return (out, err, timedOut)
    }
}

// glibc functions Swift's Glibc module does not import (declared under _GNU_SOURCE / __USE_MISC):
// posix_spawn_file_actions_addclosefrom_np (glibc 2.34; Debian 12 has 2.36), addchdir_np (2.29), pipe2.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnActionsCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnActionsChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>) -> Int32

@_silgen_name("pipe2")
private func systemPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

extension SpawnedProcess {
    /// Whether the child has installed a handler for `signal` (`SigCgt` in /proc/PID/status): a test that
    /// signals a command "past its start-up" waits for this instead of sleeping a guess, which a loaded
    /// machine outlasts (the signal then meets the default action and kills the child).
    public func catches(_ signal: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }
}
