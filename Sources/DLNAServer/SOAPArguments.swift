/// A SOAP call's arguments by name (the last of a repeated name wins, as a dictionary's would): a handful of
/// them (a Browse has six), kept in order and found by comparing names. A dictionary hashed each name at
/// every insert and lookup, a sixth of reading a Browse's envelope.
struct SOAPArguments: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var pairs: [(name: String, value: String)] = []

    init() { pairs.reserveCapacity(8) }

    init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    subscript(name: String) -> String? {
        get {
            for pair in pairs where pair.name == name { return pair.value }
            return nil
        }
        set {
            if let at = pairs.firstIndex(where: { $0.name == name }) {
                if let newValue { pairs[at].value = newValue } else { pairs.remove(at: at) }
            } else if let newValue {
                pairs.append((name, newValue))
            }
        }
    }

    var dictionary: [String: String] { Dictionary(pairs, uniquingKeysWith: { _, last in last }) }

    static func == (a: SOAPArguments, b: SOAPArguments) -> Bool { a.dictionary == b.dictionary }
}
