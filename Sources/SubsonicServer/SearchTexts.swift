import CByteSearch
import Foundation

/// Folded search texts, one per entry (a song, an album, an artist), kept as UTF-8 in one contiguous buffer,
/// so that a search runs `memmem` over bytes instead of `String.contains` over a million Swift strings, each
/// its own allocation (issue 44: `search3 "word"` took 4.5 s p95 at 1,000,000 songs, about 10 µs a song).
///
/// A text matches when it contains every word as bytes. Folded text is valid UTF-8 and so is a folded word,
/// so a byte match starts and ends on a character's bounds (UTF-8 is self-synchronising); it may end inside a
/// grapheme cluster where `String.contains` would not match ("e" inside a decomposed "é" that folding kept),
/// which a search for words is better off finding.
///
/// Entries patched after the buffer was built (`replacing`) are kept aside and matched on their own, until
/// there are enough of them that copying the buffer again costs less than looking at them on every search.
struct SearchTexts: Sendable, Equatable {
    /// The entries' bytes, each followed by a 0 byte (which no folded text holds), so that no match spans two.
    private let bytes: [UInt8]
    /// Entry `i` is `bytes[starts[i] ..< starts[i + 1] - 1]`; one more start than entries.
    private let starts: [Int]
    /// Entries patched since `bytes` was built; their bytes there are stale.
    private let replaced: [Int: [UInt8]]

    init(_ texts: some Sequence<String>) {
        var bytes: [UInt8] = [], starts: [Int] = [0]
        for text in texts {
            bytes.append(contentsOf: text.utf8.lazy.map { $0 == 0 ? 0x20 : $0 })
            bytes.append(0)
            starts.append(bytes.count)
        }
        self.init(bytes: bytes, starts: starts, replaced: [:])
    }

    private init(bytes: [UInt8], starts: [Int], replaced: [Int: [UInt8]]) {
        self.bytes = bytes
        self.starts = starts
        self.replaced = replaced
    }

    var count: Int { starts.count - 1 }

    subscript(entry: Int) -> String { String(decoding: utf8(entry), as: UTF8.self) }

    /// The same texts with `changes` (entry → new text) applied. Patches are kept aside; past
    /// `max(256, count / 32)` of them the buffer is built again (a copy of a few megabytes, once in many patches).
    func replacing(_ changes: [Int: String]) -> SearchTexts {
        var replaced = self.replaced
        for (entry, text) in changes { replaced[entry] = Array(text.utf8.lazy.map { $0 == 0 ? 0x20 : $0 }) }
        guard replaced.count > max(256, count / 32) else { return SearchTexts(bytes: bytes, starts: starts, replaced: replaced) }
        var texts: [String] = []
        texts.reserveCapacity(count)
        for entry in 0..<count { texts.append(String(decoding: replaced[entry] ?? Array(storedUTF8(entry)), as: UTF8.self)) }
        return SearchTexts(texts)
    }

    /// Whether entry `entry` contains every one of `words` (each folded and split as a search splits them).
    func entry(_ entry: Int, containsAll words: [Word]) -> Bool {
        if let patched = replaced[entry] { return patched.withUnsafeBufferPointer { text in words.allSatisfy { $0.occurs(in: text) } } }
        return bytes.withUnsafeBufferPointer { buffer in
            let text = UnsafeBufferPointer(rebasing: buffer[starts[entry] ..< starts[entry + 1] - 1])
            return words.allSatisfy { $0.occurs(in: text) }
        }
    }

    /// The entries containing every one of `words`, in entry order, after the first `skipping` of them;
    /// every entry when there are none. Lazy: a page of the first twenty stops as soon as it has them.
    /// Without words the page starts at its offset: a client paging through the whole library with
    /// `search3 ""` (Symfonium, Feishin) made each page walk every entry before it (a sync of 1,000,000
    /// songs in pages of 500 walked 10⁹ entries).
    func entries(containingAll words: [Word], skipping: Int = 0) -> Matches {
        var matches = Matches(texts: self, words: words)
        matches.skip(skipping)
        return matches
    }

    /// A word to look for, as bytes.
    struct Word: Sendable {
        let bytes: [UInt8]
        init(_ text: some StringProtocol) { bytes = Array(text.utf8) }

        func occurs(in text: UnsafeBufferPointer<UInt8>) -> Bool {
            guard !bytes.isEmpty else { return true }
            guard let base = text.baseAddress, text.count >= bytes.count else { return false }
            return mlib_memmem(base, text.count, bytes, bytes.count) != nil
        }

        func occurs(in text: String) -> Bool {
            var text = text
            return text.withUTF8 { occurs(in: $0) }
        }
    }

    struct Matches: Sequence, IteratorProtocol {
        let texts: SearchTexts
        let words: [Word]
        /// The longest word is looked for through the whole buffer (the fewest false starts); the others only
        /// inside the entries it is found in.
        private let key: Word?
        /// Patched entries that match, in order, merged with the buffer's as they come.
        private var patchedMatches: [Int]
        private var patchedNext = 0
        /// Where the buffer's scan goes on, and the buffer's next match found ahead (nil: not looked for yet).
        private var position = 0
        private var bufferNext: Int??

        init(texts: SearchTexts, words: [Word]) {
            self.texts = texts
            self.words = words
            key = words.max { $0.bytes.count < $1.bytes.count }
            patchedMatches = texts.replaced.keys.filter { texts.entry($0, containsAll: words) }.sorted()
        }

        /// Passes over the next `count` matches.
        mutating func skip(_ count: Int) {
            guard count > 0 else { return }
            if key == nil || key!.bytes.isEmpty {
                // Every entry matches: the first `count` are the entries below `count`.
                position = Swift.min(texts.count, count)
                allFrom = true
                return
            }
            for _ in 0..<count where next() == nil { return }
        }

        /// Without words, after `skip`: every entry from `position` on, patched or not.
        private var allFrom = false

        mutating func next() -> Int? {
            if allFrom {
                guard position < texts.count else { return nil }
                defer { position += 1 }
                return position
            }
            if bufferNext == nil { bufferNext = .some(nextInBuffer()) }
            let fromBuffer = bufferNext!, fromPatched = patchedNext < patchedMatches.count ? patchedMatches[patchedNext] : nil
            if let b = fromBuffer, fromPatched.map({ b < $0 }) ?? true {
                bufferNext = nil
                return b
            }
            guard let p = fromPatched else { return nil }
            patchedNext += 1
            return p
        }

        /// The next entry at or after `position` whose stored (unpatched) text holds every word.
        private mutating func nextInBuffer() -> Int? {
            let starts = texts.starts, count = texts.count
            guard let key, !key.bytes.isEmpty else {
                // No words: every entry, patched ones included (they come from `patchedMatches`).
                while position < count {
                    defer { position += 1 }
                    if texts.replaced[position] == nil { return position }
                }
                return nil
            }
            return texts.bytes.withUnsafeBufferPointer { buffer -> Int? in
                guard let base = buffer.baseAddress else { return nil }
                var offset = position < count ? starts[position] : buffer.count
                while offset < buffer.count {
                    guard let hit = mlib_memmem(base + offset, buffer.count - offset, key.bytes, key.bytes.count) else { return nil }
                    let at = UnsafeRawPointer(base).distance(to: hit)
                    let entry = Self.entry(containing: at, starts)
                    offset = starts[entry + 1]
                    position = entry + 1
                    guard texts.replaced[entry] == nil else { continue }
                    let text = UnsafeBufferPointer(rebasing: buffer[starts[entry] ..< starts[entry + 1] - 1])
                    if words.allSatisfy({ $0.occurs(in: text) }) { return entry }
                }
                position = count
                return nil
            }
        }

        /// The entry whose bytes hold buffer offset `at`: the last start at or before it.
        private static func entry(containing at: Int, _ starts: [Int]) -> Int {
            var low = 0, high = starts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= at { low = middle } else { high = middle - 1 }
            }
            return low
        }
    }

    private func storedUTF8(_ entry: Int) -> ArraySlice<UInt8> { bytes[starts[entry] ..< starts[entry + 1] - 1] }

    private func utf8(_ entry: Int) -> [UInt8] { replaced[entry] ?? Array(storedUTF8(entry)) }

    static func == (a: SearchTexts, b: SearchTexts) -> Bool {
        a.count == b.count && (0..<a.count).allSatisfy { a.utf8($0) == b.utf8($0) }
    }
}
