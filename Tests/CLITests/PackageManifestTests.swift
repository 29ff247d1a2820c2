import Foundation
import Testing
import TestSupport

/// Issue 39: the package and its documentation had drifted apart. Targets imported modules Package.swift
/// did not list (NIOCore in SubsonicServer, GRDBSQLite, NIOConcurrencyHelpers), listed ones nothing
/// imported, and `Library` depended on `Playback`; README listed `Library` twice in its module table, missed
/// four products, and quoted speed figures sessions old (a 10k scan "about 2 s, 1.8× MPD": 0.49 s, 4.2×).
@Suite("Package manifest and documentation")
struct PackageManifestTests {
    static let repo = ChildProcess.repo

    @Test func everyImportIsDeclaredAndEveryDependencyImported() throws {
        let run = try ChildProcess.run("python3", [Self.repo.appendingPathComponent("scripts/check-imports.py").path])
        #expect(run.status == 0, "\(run.out)\(run.stderr)")
    }

    /// README's figures are the benchmarks' results files' (scripts/update-readme-figures.sh), not typed.
    @Test func readmeFiguresAreTheBenchmarksResults() throws {
        let run = try ChildProcess.run(Self.repo.appendingPathComponent("scripts/update-readme-figures.sh").path, ["--check"])
        #expect(run.status == 0, "README.md or Benchmarks/README.md differs from Benchmarks/results (run scripts/update-readme-figures.sh):\n\(run.out)\(run.stderr)")
    }

    /// Every library product is named in README's list of Swift libraries, and every module of Sources
    /// has one row in its module table.
    @Test func readmeNamesEveryProductAndEveryModuleOnce() throws {
        let manifest = try String(contentsOf: Self.repo.appendingPathComponent("Package.swift"), encoding: .utf8)
        let readme = try String(contentsOf: Self.repo.appendingPathComponent("README.md"), encoding: .utf8)
        let products = manifest.matches(of: /\.library\(name: "([^"]+)"/).map { String($0.1) }
        #expect(products.count >= 15)
        let listStart = try #require(readme.range(of: "The same modules are Swift libraries ("))
        let list = readme[listStart.upperBound...].prefix { $0 != ")" }
        let listed = Set(list.matches(of: /`([A-Za-z]+)`/).map { String($0.1) })
        #expect(Set(products).subtracting(listed).isEmpty, "products missing from README: \(Set(products).subtracting(listed).sorted())")

        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }
        let named = rows.flatMap { row in row.split(separator: "|")[0].matches(of: /`([A-Za-z0-9]+)`/).map { String($0.1) } }
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.repo.appendingPathComponent("Sources").path)
        for module in modules.sorted() {
            #expect(named.filter { $0 == module }.count == 1, "README's module table names \(module) \(named.filter { $0 == module }.count) times")
        }
    }
}
