import Foundation
import TestSupport
import Testing

/// The scripts of `mlib --generate-completion-script bash|zsh|fish`, run by the real shells: bash completes
/// paths, subcommands, options, property names and playlist names (COMPREPLY of the generated function,
/// as bash's programmable completion calls it); the zsh and fish scripts parse.
struct ShellCompletionTests {
    /// A folder with a file, a directory and a library holding a playlist "Favourites".
    struct Tree {
        let dir: URL
        var library: String { dir.appendingPathComponent("library.sqlite").path }

        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-completion-\(UUID().uuidString)")
            let fm = FileManager.default
            try fm.createDirectory(at: dir.appendingPathComponent("Music/Artist"), withIntermediateDirectories: true)
            try fm.createDirectory(at: dir.appendingPathComponent("pl"), withIntermediateDirectories: true)
            try fm.copyItem(at: CLI.fixtures.appendingPathComponent("opus.opus"), to: dir.appendingPathComponent("song.opus"))
            try Data().write(to: dir.appendingPathComponent("pl/best.m3u"))
            let scan = try CLI.run(["scan", "--quiet", "--library", library, dir.appendingPathComponent("Music").path])
            #expect(scan.status == 0, "\(scan.stderr)")
            let create = try CLI.run(["playlist", "create", "--library", library, "Favourites"])
            #expect(create.status == 0, "\(create.stderr)")
        }
    }

    /// COMPREPLY for the command line `line` (the cursor at its end), from the generated bash script.
    static func bashCompletions(_ line: String, script: URL) throws -> [String] {
        let driver = """
            source "$1"
            COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMPREPLY=()
            _mlib mlib "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        // The script calls `mlib` (COMP_WORDS[0]) for playlist names: the built one, first on PATH.
        let path = CLI.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try ChildProcess.run("/bin/bash", ["-c", driver, "bash", script.path, line], environment: ["PATH": path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.out.split(separator: "\n").map(String.init)
    }

    static func script(_ shell: String, in dir: URL) throws -> URL {
        let generated = try CLI.run(["--generate-completion-script", shell])
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(generated.stdout.last == UInt8(ascii: "\n"), "the \(shell) script ends without a newline")
        let url = dir.appendingPathComponent("mlib.\(shell)")
        try generated.stdout.write(to: url)
        return url
    }

    @Test func bashCompletesPathsSubcommandsOptionsPropertiesAndPlaylists() throws {
        let tree = try Tree()
        defer { try? FileManager.default.removeItem(at: tree.dir) }
        let script = try Self.script("bash", in: tree.dir)
        let d = tree.dir.path
        func complete(_ line: String) throws -> [String] { try Self.bashCompletions(line, script: script) }

        // Paths, wherever an argument or option takes one.
        #expect(try complete("mlib info \(d)/so").contains("\(d)/song.opus"))
        #expect(try complete("mlib scan \(d)/Mu").contains("\(d)/Music"))
        #expect(try complete("mlib export -o \(d)/pl/b").contains("\(d)/pl/best.m3u"))
        #expect(try complete("mlib ls --library \(d)/lib").contains(tree.library))
        #expect(try complete("mlib playlist import \(d)/pl/").contains("\(d)/pl/best.m3u"))
        // Subcommands, also after `help`; options; property names after --sort and in a -f template.
        #expect(try complete("mlib pla") == ["playlist", "play"])
        #expect(try complete("mlib help pla") == ["playlist", "play"])
        // bash completes `pla` to `play`, the common prefix; the next Tab must still offer `playlist`.
        #expect(try complete("mlib play").contains("playlist"))
        #expect(try complete("mlib ls --so").contains("--sort"))
        #expect(try complete("mlib ls --sort yea").contains("year"))
        #expect(try complete("mlib ls -f $albumA").contains("$albumArtist"))
        // Playlist names from the library the command line names.
        for command in ["playlist show", "playlist export"] {
            #expect(try complete("mlib \(command) --library \(tree.library) Fav").contains("Favourites"), "\(command)")
        }
        #expect(try complete("mlib play --library \(tree.library) --playlist Fav").contains("Favourites"))
        // Where mlib offers nothing, bash's own filename completion remains (no path completion is lost).
        let options = try ChildProcess.run("/bin/bash", ["-c", "source \"$1\"; complete -p mlib", "bash", script.path])
        #expect(options.out.contains("-o default"), "\(options.out)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "zsh is not installed (scripts/install-deps.sh)"))
    func zshScriptParses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-zsh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let check = try ChildProcess.run("/usr/bin/zsh", ["-n", try Self.script("zsh", in: dir).path])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "fish is not installed (scripts/install-deps.sh)"))
    func fishScriptParses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-fish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try Self.script("fish", in: dir)
        let check = try ChildProcess.run("/usr/bin/fish", ["-n", script.path])
        #expect(check.status == 0, "\(check.stderr)")
        // Paths: the script lets fish complete files for path arguments (-F), not only fixed words.
        #expect(try String(contentsOf: script, encoding: .utf8).contains("-F"))
    }
}
