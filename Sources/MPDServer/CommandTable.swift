/// Every command the server knows: its permission, how many arguments it takes, and its handler.
/// (`close`, `idle` and `noidle` are answered by `ClientSession` itself; they are listed for `commands`.)
struct Command: Sendable {
    typealias Handler = @Sendable (CommandContext, inout Response) throws -> Void

    var name: String
    var permission: Permission
    var minArguments: Int
    var maxArguments: Int?
    var handler: Handler

    init(_ name: String, _ permission: Permission, _ minArguments: Int, _ maxArguments: Int?, _ handler: @escaping Handler) {
        self.name = name
        self.permission = permission
        self.minArguments = minArguments
        self.maxArguments = maxArguments
        self.handler = handler
    }
}

enum CommandTable {
    static func command(named name: String) -> Command? { byName[name] }

    private static let byName: [String: Command] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    private static let nothing: Command.Handler = { _, _ in }

    /// What is answered while the library still loads (`mlib serve` listens before its view is built):
    /// the connection, the player's state and options, the outputs, and the queue (empty until a command
    /// that waits for the library fills it). Every other command waits for the library, in order.
    static let answeredBeforeLibrary: Set<String> = [
        "binarylimit", "clearerror", "close", "commands", "consume", "crossfade", "currentsong", "decoders",
        "disableoutput", "enableoutput", "getvol", "idle", "mixrampdb", "mixrampdelay", "noidle", "notcommands",
        "outputs", "password", "pause", "ping", "playlist", "playlistid", "playlistinfo", "plchanges",
        "plchangesposid", "random", "repeat", "replay_gain_mode", "replay_gain_status", "setvol", "single",
        "status", "stop", "tagtypes", "toggleoutput", "urlhandlers", "volume",
    ]

    /// Sorted by name, as MPD's table (and so `commands`) is.
    static let all: [Command] = [
        Command("add", .add, 1, 2, QueueCommands.add),
        Command("addid", .add, 1, 2, QueueCommands.addid),
        Command("addtagid", .add, 3, 3, QueueCommands.addtagid),
        Command("albumart", .read, 2, 2, DatabaseCommands.albumart),
        Command("binarylimit", [], 1, 1, ConnectionCommands.binarylimit),
        Command("clear", .control, 0, 0, QueueCommands.clear),
        Command("clearerror", .control, 0, 0, StatusCommands.clearerror),
        Command("cleartagid", .add, 1, 2, QueueCommands.cleartagid),
        Command("close", [], 0, 0, nothing),
        Command("commands", [], 0, 0, ConnectionCommands.commands),
        Command("config", .admin, 0, 0, ConnectionCommands.config),
        Command("consume", .control, 1, 1, StatusCommands.consume),
        Command("count", .read, 1, nil, DatabaseCommands.count),
        Command("crossfade", .control, 1, 1, StatusCommands.crossfade),
        Command("currentsong", .read, 0, 0, StatusCommands.currentsong),
        Command("decoders", .read, 0, 0, ConnectionCommands.decoders),
        Command("delete", .control, 1, 1, QueueCommands.delete),
        Command("deleteid", .control, 1, 1, QueueCommands.deleteid),
        Command("disableoutput", .admin, 1, 1, OutputCommands.disable),
        Command("enableoutput", .admin, 1, 1, OutputCommands.enable),
        Command("find", .read, 1, nil, DatabaseCommands.find),
        Command("findadd", .add, 1, nil, DatabaseCommands.findadd),
        Command("getfingerprint", .read, 1, 1, FingerprintCommands.getfingerprint),
        Command("getvol", .read, 0, 0, StatusCommands.getvol),
        Command("idle", .read, 0, nil, nothing),
        Command("list", .read, 1, nil, DatabaseCommands.list),
        Command("listall", .read, 0, 1, DatabaseCommands.listall),
        Command("listallinfo", .read, 0, 1, DatabaseCommands.listallinfo),
        Command("listfiles", .read, 0, 1, FileCommands.listfiles),
        Command("listplaylist", .read, 1, 2, StoredPlaylistCommands.listplaylist),
        Command("listplaylistinfo", .read, 1, 2, StoredPlaylistCommands.listplaylistinfo),
        Command("listplaylists", .read, 0, 0, StoredPlaylistCommands.listplaylists),
        Command("load", .add, 1, 3, StoredPlaylistCommands.load),
        Command("lsinfo", .read, 0, 1, DatabaseCommands.lsinfo),
        Command("mixrampdb", .control, 1, 1, nothing),
        Command("mixrampdelay", .control, 1, 1, nothing),
        Command("move", .control, 2, 2, QueueCommands.move),
        Command("moveid", .control, 2, 2, QueueCommands.moveid),
        Command("next", .control, 0, 0, PlaybackCommands.next),
        Command("noidle", .read, 0, 0, nothing),
        Command("notcommands", [], 0, 0, ConnectionCommands.notcommands),
        Command("outputs", .read, 0, 0, OutputCommands.outputs),
        Command("password", [], 1, 1, ConnectionCommands.password),
        Command("pause", .control, 0, 1, PlaybackCommands.pause),
        Command("ping", [], 0, 0, nothing),
        Command("play", .control, 0, 1, PlaybackCommands.play),
        Command("playid", .control, 0, 1, PlaybackCommands.playid),
        Command("playlist", .read, 0, 0, QueueCommands.playlist),
        Command("playlistadd", .control, 2, 3, StoredPlaylistCommands.playlistadd),
        Command("playlistclear", .control, 1, 1, StoredPlaylistCommands.playlistclear),
        Command("playlistdelete", .control, 2, 2, StoredPlaylistCommands.playlistdelete),
        Command("playlistfind", .read, 1, nil, QueueCommands.playlistfind),
        Command("playlistid", .read, 0, 1, QueueCommands.playlistid),
        Command("playlistinfo", .read, 0, 1, QueueCommands.playlistinfo),
        Command("playlistmove", .control, 3, 3, StoredPlaylistCommands.playlistmove),
        Command("playlistsearch", .read, 1, nil, QueueCommands.playlistsearch),
        Command("plchanges", .read, 1, 2, QueueCommands.plchanges),
        Command("plchangesposid", .read, 1, 2, QueueCommands.plchangesposid),
        Command("previous", .control, 0, 0, PlaybackCommands.previous),
        Command("prio", .control, 2, nil, QueueCommands.prio),
        Command("prioid", .control, 2, nil, QueueCommands.prioid),
        Command("random", .control, 1, 1, StatusCommands.random),
        Command("readcomments", .read, 1, 1, FileCommands.readcomments),
        Command("readpicture", .read, 2, 2, DatabaseCommands.readpicture),
        Command("rename", .control, 2, 2, StoredPlaylistCommands.rename),
        Command("repeat", .control, 1, 1, StatusCommands.`repeat`),
        Command("replay_gain_mode", .control, 1, 1, StatusCommands.replayGainMode),
        Command("replay_gain_status", .read, 0, 0, StatusCommands.replayGainStatus),
        Command("rescan", .admin, 0, 1, DatabaseCommands.update),
        Command("rm", .control, 1, 1, StoredPlaylistCommands.rm),
        Command("save", .control, 1, 2, StoredPlaylistCommands.save),
        Command("search", .read, 1, nil, DatabaseCommands.search),
        Command("searchadd", .add, 1, nil, DatabaseCommands.searchadd),
        Command("searchaddpl", .control, 2, nil, StoredPlaylistCommands.searchaddpl),
        Command("seek", .control, 2, 2, PlaybackCommands.seek),
        Command("seekcur", .control, 1, 1, PlaybackCommands.seekcur),
        Command("seekid", .control, 2, 2, PlaybackCommands.seekid),
        Command("setvol", .control, 1, 1, StatusCommands.setvol),
        Command("shuffle", .control, 0, 1, QueueCommands.shuffle),
        Command("single", .control, 1, 1, StatusCommands.single),
        Command("stats", .read, 0, 0, StatusCommands.stats),
        Command("sticker", .admin, 3, nil, StickerCommands.sticker),
        Command("status", .read, 0, 0, StatusCommands.status),
        Command("stop", .control, 0, 0, PlaybackCommands.stop),
        Command("swap", .control, 2, 2, QueueCommands.swap),
        Command("swapid", .control, 2, 2, QueueCommands.swapid),
        // No permission needed, as with mpd: clients set their tags up before they send the password.
        Command("tagtypes", [], 0, nil, ConnectionCommands.tagtypes),
        Command("toggleoutput", .admin, 1, 1, OutputCommands.toggle),
        Command("update", .admin, 0, 1, DatabaseCommands.update),
        Command("urlhandlers", .read, 0, 0, ConnectionCommands.urlhandlers),
        Command("volume", .control, 1, 1, StatusCommands.volume),
    ]
}
