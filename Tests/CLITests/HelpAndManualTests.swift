import Foundation
import Testing

/// `--help` of every command and mlib(1) agree: each option a command's --help lists is documented in the
/// man page (and each command's --help states its exit statuses, see ExitStatusTests).
struct HelpAndManualTests {
    static let commands: [[String]] = [
        ["info"], ["scan"], ["watch"], ["root", "list"], ["root", "add"], ["root", "move"], ["root", "forget"],
        ["root", "exclude"], ["stats"], ["failures"], ["ls"], ["export"], ["playlist", "create"], ["playlist", "add"],
        ["playlist", "remove"], ["playlist", "list"], ["playlist", "show"], ["playlist", "rename"], ["playlist", "delete"],
        ["playlist", "export"], ["playlist", "smart"], ["playlist", "import"], ["play"], ["rate"], ["set"], ["fields"],
    ]

    @Test func everyOptionInHelpIsInTheManPage() throws {
        let manual = try String(contentsOf: CLI.repo.appendingPathComponent("man/mlib.1"), encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        for command in Self.commands {
            let help = try CLI.run(command + ["--help"])
            #expect(help.status == 0)
            var inOptions = false
            for line in help.out.split(separator: "\n") {
                if line.hasPrefix("OPTIONS:") { inOptions = true; continue }
                guard inOptions, line.hasPrefix("  -") else { continue }
                guard let option = line.split(separator: " ").first(where: { $0.hasPrefix("--") })
                    .map({ String($0.prefix { $0 == "-" || $0.isLetter || $0.isNumber }) }) else { continue }
                if ["--help", "--version", "--library"].contains(option) { continue }
                #expect(manual.contains(option), "mlib \(command.joined(separator: " ")) \(option) is not in mlib(1)")
            }
        }
    }
}
