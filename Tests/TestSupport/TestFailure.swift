/// A test's own failure with its reason, thrown where a step cannot go on (one type for every test target).
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
