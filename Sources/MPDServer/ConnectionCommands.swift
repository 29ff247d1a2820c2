/// `password`, `commands`, `notcommands`, `tagtypes`, `urlhandlers`, `decoders`, `binarylimit`, `config`.
enum ConnectionCommands {
    /// The server's password (`--password`), or `user:secret`: a user of the library and their password,
    /// as mpd's per-password permissions; the connection then acts as that user (stickers, the player's
    /// plays when it starts playback). The user is checked off the loop (a store read and a decryption).
    static func password(_ c: CommandContext, _ out: inout Response) throws {
        let given = c.arguments[0]
        if let expected = c.core.configuration.password, given == expected {
            c.session.permissions = .all
            return
        }
        guard let colon = given.firstIndex(of: ":") else { throw MPDError(.password, "incorrect password") }
        let name = String(given[..<colon]), secret = String(given[given.index(after: colon)...])
        let library = c.core.library, keyFile = c.core.configuration.keyFile
        c.offLoop {
            // A library whose users cannot be opened (no key file) has no user passwords to match.
            guard let account = try? library.users(keyFile: keyFile).account(named: name, password: secret) else {
                throw MPDError(.password, "incorrect password")
            }
            return { c, _ in
                c.session.user = account.isOwner ? nil : account.name
                c.session.permissions = .all
            }
        }
    }

    // `noidle` is not listed by mpd: it is answered only inside `idle`.
    static func commands(_ c: CommandContext, _ out: inout Response) throws {
        for command in CommandTable.all where command.name != "noidle" && c.session.permissions.isSuperset(of: command.permission) {
            out.field("command", command.name)
        }
    }

    static func notcommands(_ c: CommandContext, _ out: inout Response) throws {
        for command in CommandTable.all where command.name != "noidle" && !c.session.permissions.isSuperset(of: command.permission) {
            out.field("command", command.name)
        }
    }

    /// `tagtypes` lists the enabled tags; `clear`, `all`, `enable TAG…`, `disable TAG…` change them.
    static func tagtypes(_ c: CommandContext, _ out: inout Response) throws {
        guard let verb = c.arguments.first else {
            for tag in MPDTag.all where c.session.enabledTags.contains(tag.name) { out.field("tagtype", tag.name) }
            return
        }
        let names = try c.arguments.dropFirst().map { argument -> String in
            guard let tag = MPDTag.named(argument) else { throw MPDError.badArgument("Unknown tag type: \(argument)") }
            return tag.name
        }
        switch verb {
        case "clear": c.session.enabledTags = []
        case "all": c.session.enabledTags = Set(MPDTag.all.map(\.name))
        case "enable":
            guard !names.isEmpty else { throw MPDError.badArgument("Not enough arguments") }
            c.session.enabledTags.formUnion(names)
        case "disable":
            guard !names.isEmpty else { throw MPDError.badArgument("Not enough arguments") }
            c.session.enabledTags.subtract(names)
        default: throw MPDError.badArgument("Unknown sub command")
        }
    }

    /// mlib plays files only: no stream handlers.
    static func urlhandlers(_ c: CommandContext, _ out: inout Response) throws {}

    /// One decoder, FFmpeg, with the suffixes mlib's scanner indexes.
    static func decoders(_ c: CommandContext, _ out: inout Response) throws {
        out.field("plugin", "ffmpeg")
        for suffix in ["aac", "aif", "aiff", "alac", "ape", "flac", "m4a", "m4b", "mka", "mkv", "mp2", "mp3", "mp4",
                       "mpc", "oga", "ogg", "opus", "tta", "wav", "webm", "wma", "wv"] {
            out.field("suffix", suffix)
        }
    }

    static func binarylimit(_ c: CommandContext, _ out: inout Response) throws {
        let size = try Arguments.unsigned(c.arguments[0])
        guard size >= 64 else { throw MPDError.badArgument("Value too small") }
        c.session.binaryLimit = size
    }

    /// MPD answers `config` only on a local socket; mlib has no configuration file to show.
    static func config(_ c: CommandContext, _ out: inout Response) throws {
        throw MPDError(.permission, "Command only permitted to local clients")
    }
}

/// `outputs`, `enableoutput`, `disableoutput`, `toggleoutput`: the player's one sink.
enum OutputCommands {
    static func outputs(_ c: CommandContext, _ out: inout Response) throws {
        out.field("outputid", 0)
        out.field("outputname", c.core.configuration.outputName)
        out.field("plugin", c.core.configuration.outputPlugin)
        out.field("outputenabled", c.core.outputEnabled ? 1 : 0)
    }

    static func enable(_ c: CommandContext, _ out: inout Response) throws { try set(c, { _ in true }) }
    static func disable(_ c: CommandContext, _ out: inout Response) throws { try set(c, { _ in false }) }
    static func toggle(_ c: CommandContext, _ out: inout Response) throws { try set(c, { !$0 }) }

    /// A disabled output plays nothing: the player pauses, as MPD's does with no enabled output.
    private static func set(_ c: CommandContext, _ change: (Bool) -> Bool) throws {
        guard try Arguments.unsigned(c.arguments[0]) == 0 else { throw MPDError(.noExist, "No such audio output") }
        let enabled = change(c.core.outputEnabled)
        guard enabled != c.core.outputEnabled else { return }
        c.core.outputEnabled = enabled
        if !enabled { c.core.player.pause() }
        // mpd wakes `mixer` too: the output's volume comes and goes with it.
        c.core.emit([.output, .mixer])
    }
}
