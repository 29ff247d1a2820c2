import Foundation
import Testing

/// `--help` of every command and mlib(1) agree, both ways: every command and every option ArgumentParser
/// knows (read from `mlib --experimental-dump-help`, the description its own manual and completion
/// generators use, so a new command or option is checked without editing this test) is documented, and
/// every command and option the man page names exists. Each command's --help states its exit statuses
/// (ExitStatusTests) and its examples run (DocumentedExamplesTests).
struct HelpAndManualTests {
    struct Command {
        var path: [String]
        var aliases: [String]
        var longOptions: [String]
        var abstract: String
    }

    /// Every command under `mlib`, from ArgumentParser's own description of the tool.
    static func commands() throws -> [Command] {
        let dump = try CLI.run(["--experimental-dump-help"])
        #expect(dump.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        var result: [Command] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let options = (command["arguments"] as? [[String: Any]] ?? []).filter { ($0["shouldDisplay"] as? Bool) != false }
                .flatMap { ($0["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String } }
            result.append(Command(path: path, aliases: command["aliases"] as? [String] ?? [], longOptions: options.map { "--" + $0 },
                                  abstract: command["abstract"] as? String ?? ""))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                walk(sub, path + [name])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        return result
    }

    /// mlib(1) as running text: macros, font escapes and line breaks gone, `\-` a hyphen.
    static func manualText() throws -> (raw: String, text: String) {
        let raw = try String(contentsOf: CLI.repo.appendingPathComponent("man/mlib.1"), encoding: .utf8)
        return (raw.replacingOccurrences(of: "\\-", with: "-"), runningText(raw))
    }

    /// roff as running text: macros, font escapes and line breaks gone, `\-` a hyphen.
    static func runningText(_ raw: String) -> String {
        raw.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var l = String(line)
            if l.hasPrefix(".\\\"") { return "" }
            if l.hasPrefix(".") { l = String(l.drop { $0 != " " }) }       // .B, .BR, .TP …
            return l
        }.joined(separator: " ")
            .replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: #"\\f[BIRP]"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "\"", with: "")
            .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
    }

    @Test func everyCommandAndOptionInHelpIsInTheManPage() throws {
        let commands = try Self.commands()
        #expect(commands.count > 25, "\(commands.map(\.path))")
        let (_, manual) = try Self.manualText()
        for command in commands where !command.path.isEmpty {
            let name = "mlib " + command.path.joined(separator: " ")
            #expect(manual.contains(name), "\(name) is not in mlib(1)")
            for option in command.longOptions where !["--help", "--version"].contains(option) {
                #expect(manual.contains(option), "\(name) \(option) is not in mlib(1)")
            }
            // What --help prints is what the dump describes (the same parser, so this guards the test).
            let help = try CLI.run(command.path + ["--help"])
            #expect(help.status == 0)
            for option in command.longOptions { #expect(help.out.contains(option), "\(name) --help lacks \(option)") }
        }
    }

    /// mlib(1)'s section of `command`: the blocks (from one .SH/.SS heading to the next) headed by
    /// `.SS mlib WORD…` or opening with `.B mlib WORD`, WORD the command's first word; else the first block
    /// after the synopsis that sets `mlib WORD` in bold at a line's start (`mlib set`, `mlib fields`).
    /// Nil when the page has none. Running text, as `manualText`.
    static func section(of command: Command, in raw: String) -> String? {
        guard let word = command.path.first else { return nil }
        var blocks: [(heading: String, body: [String])] = []
        for line in raw.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix(".SH ") || line.hasPrefix(".SS ") { blocks.append((line, [])) } else if !blocks.isEmpty { blocks[blocks.count - 1].body.append(line) }
        }
        func names(_ line: String) -> Bool {
            let rest = line.drop { $0 != " " }.drop { $0 == " " || $0 == "\"" }
            guard rest.hasPrefix("mlib \(word)") else { return false }
            return rest.dropFirst("mlib \(word)".count).first.map { !$0.isLetter } ?? true
        }
        let described = blocks.dropFirst(2)  // NAME, SYNOPSIS
        var chosen = described.filter { block in
            block.heading.hasPrefix(".SS ") ? names(block.heading) : block.body.first.map { $0.hasPrefix(".B ") && names($0) } ?? false
        }
        if chosen.isEmpty, let first = described.first(where: { $0.body.contains { ($0.hasPrefix(".B ") || $0.hasPrefix(".BR ")) && names($0) } }) {
            chosen = [first]
        }
        guard !chosen.isEmpty else { return nil }
        return Self.runningText(chosen.map { ([$0.heading] + $0.body).joined(separator: "\n") }.joined(separator: "\n"))
    }

    /// Each option is described where its command is, not merely named somewhere in the page (it accepted
    /// `play --ignore-articles` and `watch --jobs` because other commands name those options).
    @Test func everyOptionIsInItsCommandsSection() throws {
        let (raw, manual) = try Self.manualText()
        // --library and --user are the options every command shares: LIBRARY LOCATION and "Users and
        // per-user values" describe them for all of them.
        #expect(manual.contains("LIBRARY LOCATION The library database is, in order of precedence: the --library option"))
        #expect(manual.contains("--user name (any command, after the subcommand), or MLIB_USER , makes a command act as that user"))
        for command in try Self.commands() where !command.path.isEmpty {
            let name = "mlib " + command.path.joined(separator: " ")
            guard let section = Self.section(of: command, in: raw) else {
                Issue.record("mlib(1) has no section for \(name)")
                continue
            }
            for option in command.longOptions where !["--help", "--version", "--library", "--user"].contains(option) {
                #expect(section.contains(option), "\(name) \(option) is not in its section of mlib(1)")
            }
        }
    }

    /// Nothing in the man page that the program lacks: each `--option` it names belongs to some command,
    /// and each `mlib WORD` it sets in bold is a command.
    @Test func everyCommandAndOptionInTheManPageExists() throws {
        let commands = try Self.commands()
        let options = Set(commands.flatMap(\.longOptions))
        let names = Set(commands.flatMap { $0.path + $0.aliases })
        let (raw, manual) = try Self.manualText()
        // Options of other programs the page compares with or pipes into (mediainfo, systemctl), and
        // ArgumentParser's hidden one for shell completions.
        let foreign: Set<String> = ["--Inform", "--user", "--now", "--generate-completion-script"]
        let optionPattern = try NSRegularExpression(pattern: #"(?<![\w-])--[A-Za-z][A-Za-z0-9-]*"#)
        for match in optionPattern.matches(in: manual, range: NSRange(manual.startIndex..., in: manual)) {
            let option = (manual as NSString).substring(with: match.range)
            #expect(options.contains(option) || foreign.contains(option), "mlib(1) names \(option), which no command takes")
        }
        let commandPattern = try NSRegularExpression(pattern: #"(?m)^\.(?:B|SS|BR|RB) "?mlib ([a-z]+)"#)
        for match in commandPattern.matches(in: raw, range: NSRange(raw.startIndex..., in: raw)) {
            let word = (raw as NSString).substring(with: match.range(at: 1))
            #expect(names.contains(word), "mlib(1) names the command mlib \(word), which does not exist")
        }
    }

    /// man/mlib-commands.1 is generated from --help (scripts/generate-manual.sh, ArgumentParser's plugin):
    /// it must be regenerated when a command, an option or an abstract changes.
    @Test func theGeneratedCommandReferenceIsCurrent() throws {
        let page = try String(contentsOf: CLI.repo.appendingPathComponent("man/mlib-commands.1"), encoding: .utf8)
        let lines = page.split(separator: "\n").map(String.init)
        let commands = try Self.commands()
        let stale = "is stale: run scripts/generate-manual.sh"
        for command in commands {
            // ArgumentParser 1.8.2's generator drops characters outside ASCII (0–5 becomes 05).
            let abstract = String(String.UnicodeScalarView(command.abstract.unicodeScalars.filter(\.isASCII)))
            #expect(page.contains(abstract), "mlib-commands.1 \(stale) (abstract of mlib \(command.path.joined(separator: " ")))")
            if let name = command.path.last {
                let heading = command.aliases.isEmpty ? ".It Em \(name)" : ".It Em \"\(([name] + command.aliases).joined(separator: ", "))\""
                #expect(lines.contains(heading), "mlib-commands.1 \(stale) (no \(heading))")
            }
        }
        // Every option line of the page is an option of the code, and the other way round.
        let documented = Set(lines.filter { $0.hasPrefix(".It Fl") }.flatMap { line in
            line.split(separator: " ").filter { $0.hasPrefix("-") && $0.count > 1 }.map { "-" + $0 }
        })
        let known = Set(commands.flatMap(\.longOptions))
        #expect(documented.subtracting(known).isEmpty, "mlib-commands.1 \(stale): \(documented.subtracting(known).sorted())")
        #expect(known.subtracting(documented).isEmpty, "mlib-commands.1 \(stale): \(known.subtracting(documented).sorted())")
    }
}
