import Testing

/// Every lab suite runs only where `NetworkLab` can make namespaces; elsewhere each of its tests is shown
/// skipped with the reason (not root, no `ip netns`, no PostgreSQL).
extension Trait where Self == ConditionTrait {
    static var needsNetworkLab: ConditionTrait {
        .enabled(if: NetworkLab.isAvailable, Comment(rawValue: NetworkLab.unavailableReason ?? ""))
    }
}

/// Seconds since `start`, to one decimal, for the figures the tests print.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    let value = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (value * 10).rounded() / 10
}
