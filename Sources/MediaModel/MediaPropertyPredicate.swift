/// Apple's form, `MPMediaPropertyPredicate(value:forProperty:comparisonType:)`, added to a `MediaQuery`
/// with `addFilterPredicate(_:)` (all filter predicates are ANDed, as in `MPMediaQuery`).
///
/// `.equalTo` is an exact comparison (bit test for `mediaType`, so `MediaType.anyAudio` matches every
/// audio kind); `.contains` is a case- and diacritic-insensitive substring test. A nil value with
/// `.equalTo` matches items without the property.
public struct MediaPropertyPredicate: Sendable, Hashable {
    public enum ComparisonType: Sendable, Hashable { case equalTo, contains }

    public let property: MediaProperty
    public let value: MediaValue?
    public let comparisonType: ComparisonType

    public init(value: (any MediaValueConvertible)?, forProperty property: MediaProperty,
                comparisonType: ComparisonType = .equalTo) {
        self.property = property
        self.value = value?.mediaValue
        self.comparisonType = comparisonType
    }

    /// With a property key as text (`"artist"`, aliases allowed); nil for an unknown key.
    public init?(value: (any MediaValueConvertible)?, forProperty key: String, comparisonType: ComparisonType = .equalTo) {
        guard let p = MediaProperty(name: key) else { return nil }
        self.init(value: value, forProperty: p, comparisonType: comparisonType)
    }

    /// The equivalent AST node.
    public var predicate: Predicate {
        guard let value else {
            return .comparison(Comparison(property, comparisonType == .equalTo ? .equal : .notEqual, .null))
        }
        switch comparisonType {
        case .equalTo: return .comparison(Comparison(property, .equal, .value(value)))
        case .contains: return .comparison(Comparison(property, .contains, .value(value), options: .cd))
        }
    }
}
