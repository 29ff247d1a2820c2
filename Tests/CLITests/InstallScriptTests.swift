import Foundation
import TestSupport
import Testing

/// `scripts/install.sh` into a temporary prefix (issue 30, point 9): it always rebuilt, installed the
/// unstripped binary, and the contrib units ran `%h/.local/bin/mlib` whatever the prefix.
@Suite(.serialized) struct InstallScriptTests {
    static let systemdAnalyze = "/usr/bin/systemd-analyze"

    /// Installs the built binary (`--binary`, so nothing is built) into a fresh prefix.
    static func install() throws -> (prefix: URL, result: CLI.Result) {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-install-\(UUID().uuidString)")
        let result = try ChildProcess.run("/bin/bash", [CLI.repo.appendingPathComponent("scripts/install.sh").path, "--binary", CLI.binary.path, prefix.path])
        return (prefix, result)
    }

    @Test func installsAStrippedBinaryManPagesCompletionsAndUnitsAtThePrefix() throws {
        let (prefix, result) = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(result.status == 0, "\(result.stderr)")
        let fm = FileManager.default
        let installed = prefix.appendingPathComponent("bin/mlib").path
        let size = { (path: String) in (try fm.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        #expect(try size(installed) < size(CLI.binary.path), "the installed binary is stripped")
        #expect(try ChildProcess.run(installed, ["--version"]).status == 0)
        for file in ["share/man/man1/mlib.1", "share/man/man1/mlib-commands.1", "share/man/man7/mlib-query.7",
                     "share/bash-completion/completions/mlib", "share/zsh/site-functions/_mlib",
                     "share/fish/vendor_completions.d/mlib.fish"] {
            #expect(try size(prefix.appendingPathComponent(file).path) > 0, "\(file)")
        }
        for unit in ["mlib-watch.service", "mlib-serve.service"] {
            let text = try String(contentsOf: prefix.appendingPathComponent("lib/systemd/user/" + unit), encoding: .utf8)
            let execStart = text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") } ?? ""
            #expect(execStart.hasPrefix("ExecStart=\(installed) "), "\(unit): \(execStart)")
        }
    }

    @Test func unknownOptionsAreUsageErrors() throws {
        let r = try ChildProcess.run("/bin/bash", [CLI.repo.appendingPathComponent("scripts/install.sh").path, "--frobnicate"])
        #expect(r.status == 2, "\(r.stderr)")
        let help = try ChildProcess.run("/bin/bash", [CLI.repo.appendingPathComponent("scripts/install.sh").path, "--help"])
        #expect(help.status == 0 && help.out.contains("--no-build"), "\(help.out)")
    }

    /// systemd's own check of the installed units: their ExecStart names an executable that exists.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: systemdAnalyze), "systemd-analyze is not installed"))
    func theInstalledUnitsPassSystemdAnalyzeVerify() throws {
        let (prefix, result) = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(result.status == 0, "\(result.stderr)")
        let units = ["mlib-watch.service", "mlib-serve.service"].map { prefix.appendingPathComponent("lib/systemd/user/" + $0).path }
        let verify = try ChildProcess.run(Self.systemdAnalyze, ["verify"] + units)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(!verify.stderr.contains("is not executable"), "\(verify.stderr)")
    }
}
