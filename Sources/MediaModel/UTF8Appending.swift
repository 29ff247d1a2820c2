extension Array where Element == UInt8 {
    /// Appends `text`'s UTF-8 bytes as one copy of its contiguous storage (a native or literal string's,
    /// a small one's copied out first). `append(contentsOf: text.utf8)` takes the generic sequence path:
    /// ~170 instructions a call (callgrind), a tenth of an MPD `lsinfo DIR` of five directories and of
    /// the SOAP markup around a DLNA Browse page.
    @inlinable
    public mutating func append(utf8 text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if done == nil { append(contentsOf: text.utf8) }
    }
}
