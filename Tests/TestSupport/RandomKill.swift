import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// "Kill it at a random moment and look at what is left": the harness of the tests that hold a writer
/// (`mlib tag`, `mlib analyze --write`, `mlib scan`) to "each file wholly old or wholly new" under SIGKILL.
public struct RandomKill {
    /// How many trials left every file old, every file new, or some of each.
    public private(set) var allOld = 0, allNew = 0, mixed = 0
    /// How long the run takes when not killed; the moments are drawn from 0…110% of it.
    public let duration: Double
    private var generator = SystemRandomNumberGenerator()

    public init(duration: Double) { self.duration = duration }

    /// Runs `program arguments` (output discarded) and sends it SIGKILL after a random moment within the
    /// run's duration (a little past it, so that some runs finish); returns once it is gone.
    @discardableResult
    public mutating func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> SpawnedProcess {
        let child = try SpawnedProcess(program, arguments, environment: environment)
        usleep(UInt32(Double.random(in: 0...(duration * 1.1), using: &generator) * 1_000_000))
        child.signal(SIGKILL)
        child.waitUntilExit()
        return child
    }

    /// Counts one trial's outcome: `new` of `total` files found new.
    public mutating func record(new: Int, of total: Int) {
        if new == 0 { allOld += 1 } else if new == total { allNew += 1 } else { mixed += 1 }
    }

    /// One line for the test's output: "all old 3, all new 12, part 9".
    public var summary: String { "all old \(allOld), all new \(allNew), part \(mixed)" }
}
