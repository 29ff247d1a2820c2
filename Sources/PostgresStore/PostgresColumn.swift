import Foundation
import MediaIndex
import PostgresNIO

// A batch of rows goes to the server column by column, each column one array parameter (`PostgresBindings.appendColumn`)
// that `unnest` turns back into rows. The statement then has one parameter per column whatever the row count.
// A multi-row VALUES list of 500 rows × 80 columns had 40,000 parameters: parsing, analysing and planning it
// took about 40% of the server's CPU in a full scan (perf, 10,000 files), and building its text much of the
// writer's.

/// A one-dimensional PostgreSQL array whose elements may be NULL, in the binary array format
/// (postgres-nio's `Array` encoding has no NULL elements).
struct NullableArray<Element: PostgresArrayEncodable & PostgresNonThrowingEncodable>: PostgresNonThrowingEncodable,
    PostgresDynamicTypeEncodable {
    var elements: [Element?]

    static var psqlType: PostgresDataType { Element.psqlArrayType }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeInteger(1, as: Int32.self)                                  // dimensions
        buffer.writeInteger(elements.contains { $0 == nil } ? 1 : 0, as: Int32.self)  // has NULLs
        buffer.writeInteger(Element.psqlType.rawValue)
        buffer.writeInteger(Int32(elements.count))                              // length of the dimension
        buffer.writeInteger(1, as: Int32.self)                                  // its lower bound
        for element in elements {
            guard let element else { buffer.writeInteger(-1, as: Int32.self); continue }     // NULL: length -1
            let start = buffer.writerIndex
            buffer.writeInteger(0, as: Int32.self)                              // the length, set below
            element.encode(into: &buffer, context: context)
            buffer.setInteger(Int32(buffer.writerIndex - start - 4), at: start)
        }
    }
}

extension PostgresBindings {
    /// Binds a column of a batch as one array of the column's type and returns its placeholder; `unnest` in
    /// the statement makes rows of the columns again, in order.
    mutating func appendColumn(_ values: [SQLValue], as type: SQLColumnType) -> String {
        switch type {
        case .bytes: append(NullableArray(elements: values.map { $0.bytes.map { ByteBuffer(bytes: $0) } }))
        case .text: append(NullableArray(elements: values.map { $0.isNull ? nil : $0.text }))
        case .integer: append(NullableArray(elements: values.map(\.integer)))
        case .real: append(NullableArray(elements: values.map(\.real)))
        }
        return "$\(count)"
    }
}
