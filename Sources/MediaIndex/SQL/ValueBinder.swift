/// Values bound while a condition is composed out of order (a query compiler builds a leaf's SQL before the
/// text around it): `bind` returns a numbered token, and `statement(_:)` turns a text holding tokens into an
/// `SQLStatement`, its values in the order the tokens appear (a token may appear twice).
package struct ValueBinder {
    package private(set) var values: [SQLValue] = []
    package init() {}

    /// Binds a value; returns its token (\u{1}N\u{2}) to put in the text.
    package mutating func bind(_ value: some SQLBindable) -> String {
        values.append(value.sqlValue)
        return "\u{1}\(values.count)\u{2}"
    }

    package func statement(_ text: String) -> SQLStatement {
        var out: [UInt8] = []
        var ordered: [SQLValue] = []
        var number: Int?
        for byte in text.utf8 {
            if byte == 1 { number = 0; continue }
            if let n = number {
                if byte == 2 {
                    out.append(1)
                    ordered.append(values[n - 1])
                    number = nil
                } else {
                    number = n * 10 + Int(byte - 48)
                }
                continue
            }
            out.append(byte)
        }
        return SQLStatement(markedText: String(decoding: out, as: UTF8.self), values: ordered)
    }
}
