import Foundation
import Library
import MediaIndex
import MediaModel
import MediaScanner
import PostgresTestServer
import Testing

/// No front can scan outside a root: the root test is on whole components, and a path with `.` or `..`
/// components (which the kernel resolves elsewhere) is inside nothing (issue 26, 1).
@Suite struct ContainmentTests {
    @Test func theRootTestIsOnComponentsNotBytes() {
        let roots = [MediaPath("/music"), MediaPath("/music/Live"), MediaPath("/")]
        #expect(RootContainment.root(holding: MediaPath("/music/a/b.mp3"), among: roots[..<2].map { $0 }) == MediaPath("/music"))
        #expect(RootContainment.root(holding: MediaPath("/music/Live/x.mp3"), among: roots) == MediaPath("/music/Live"))
        #expect(RootContainment.root(holding: MediaPath("/music"), among: [MediaPath("/music/")]) == MediaPath("/music/"))
        #expect(RootContainment.root(holding: MediaPath("/music2/x.mp3"), among: [MediaPath("/music")]) == nil)
        #expect(RootContainment.root(holding: MediaPath("/etc/passwd"), among: [MediaPath("/")]) == MediaPath("/"))
        for escape in ["/music/../etc", "/music/a/../../etc", "/music/./a", "/music//a", "/music/..", "music/a"] {
            #expect(RootContainment.root(holding: MediaPath(escape), among: roots) == nil, "\(escape)")
        }
    }

    /// `isSafeRelative` in one pass says what splitting into components says (MPD's `uri_safe_local`): every
    /// string of up to seven of "a", "." and "/".
    @Test func aSafeRelativePathIsOneWithoutEmptyDotOrDotDotComponents() {
        var strings: [[UInt8]] = [[]]
        var last: [[UInt8]] = [[]]
        for _ in 0..<7 {
            last = last.flatMap { s in [UInt8(ascii: "a"), UInt8(ascii: "."), UInt8(ascii: "/")].map { s + [$0] } }
            strings += last
        }
        for s in strings {
            let components = s.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            let safe = !s.isEmpty && !components.contains { $0.isEmpty || $0.elementsEqual([46]) || $0.elementsEqual([46, 46]) }
            #expect(RootContainment.isSafeRelative(s) == safe, "\(String(decoding: s, as: UTF8.self))")
            #expect(RootContainment.isSafeRelative(String(decoding: s, as: UTF8.self).utf8) == safe)
        }
    }

    /// `root/../outside` is refused by the scanner and by the plan (it becomes no new root), whichever
    /// front asks: nothing outside the root is indexed.
    @Test(arguments: Store.available) func aDotDotPathIsNotScanned(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        try box.put("a.mp3", at: "a.mp3")
        let outside = box.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Templates.url("b.flac"), to: outside.appendingPathComponent("b.flac"))
        try await box.scan()
        let escape = MediaPath(box.music.path + "/../outside")

        let plan = ScanPlan(directories: [escape], roots: [box.root()])
        #expect(plan.newRoots.isEmpty)

        let index = try box.store()
        let summary = try await MediaScanner(index: index).scan([escape])
        #expect(summary.added == 0 && summary.missingRoots.map(\.path) == [escape], "\(summary)")
        #expect(try index.items(MediaQuery()).map(\.path) == [box.root().appending(MediaPath("a.mp3"))])

        let library = Library(store: index)
        _ = try await library.scan([escape])
        #expect(try index.roots() == [box.root()])
        #expect(try index.count(MediaQuery()) == 1)
    }
}
